import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before } from 'node:test';
import { createInterface } from 'node:readline';
import { DEV_AUTH_SECRET } from '../src/config.js';
import { createTokens } from '../src/tokens.js';
import { databaseClient } from './database.js';

// The apps' tests run against a real PostgreSQL, migrated and seeded by the
// Go tool (go run ./db/dbctl migrate && go run ./db/dbctl seed); nothing is
// mocked.

/** DATABASE_URL is the database the apps under test use; importing this module without it fails. */
export const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) {
  throw new Error(
    'DATABASE_URL is not set: the tests need a PostgreSQL migrated and seeded with ' +
      '"go run ./db/dbctl migrate" and "go run ./db/dbctl seed", e.g. DATABASE_URL=postgres://postgres@localhost:5432/crudbench?sslmode=disable',
  );
}

/**
 * appStarter returns startApp(env = {}, main = 'main.js'), which runs the
 * app's entry point main in srcDir (a file URL ending in /) as its own
 * process on a free port, as it runs in production, with DATABASE_URL
 * and env, and resolves once it listens: { url, addr, listening, logs,
 * stop }. addr is the address it logged listening on (url is http:// and
 * it), listening that log line; logs are its log lines read as JSON; stop
 * sends SIGTERM and resolves with the exit code. baseEnv is added to every
 * start's environment, under env; stderr is the child's stderr ('pipe' by
 * default, 'inherit' to see it).
 */
export function appStarter(srcDir, { baseEnv = {}, stderr = 'pipe' } = {}) {
  return async function startApp(env = {}, main = 'main.js') {
    const child = spawn(process.execPath, [new URL(main, srcDir).pathname], {
      env: { PATH: process.env.PATH, DATABASE_URL, ADDR: '127.0.0.1:0', ...baseEnv, ...env },
      stdio: ['ignore', 'pipe', stderr],
    });
    const logs = [];
    const exited = once(child, 'exit');
    const lines = createInterface({ input: child.stdout });
    const listening = new Promise((resolve, reject) => {
      lines.on('line', (line) => {
        const entry = JSON.parse(line);
        logs.push(entry);
        if (entry.msg === 'listening') resolve(entry);
      });
      exited.then(([code]) => reject(new Error(`the app exited with ${code} before listening`)));
    });
    const entry = await listening;
    return {
      url: `http://${entry.addr}`,
      addr: entry.addr,
      listening: entry,
      logs,
      async stop() {
        child.kill('SIGTERM');
        const [code] = await exited;
        return code;
      },
    };
  };
}

/**
 * startSession is a suite's setup: in the suite that calls it, a before
 * hook starts the app with startApp(env), logs in as editor and viewer
 * with login(app, username) when given, and connects a database client
 * (databaseClient of DATABASE_URL); an after hook closes the client and
 * stops the app, wanting exit code 0 (a graceful shutdown). onStart(session)
 * is called once before has filled the session, { app, editor, viewer, db },
 * for a suite that keeps them in variables of its own; the session is
 * returned too.
 */
export function startSession(startApp, { env, login, onStart } = {}) {
  const session = {};
  before(async () => {
    session.app = await startApp(env);
    if (login) [session.editor, session.viewer] = await Promise.all([login(session.app, 'editor'), login(session.app, 'viewer')]);
    session.db = databaseClient(DATABASE_URL);
    await session.db.connect();
    onStart?.(session);
  });
  after(async () => {
    await session.db?.end();
    assert.equal(await session.app?.stop(), 0, 'graceful shutdown exits 0');
  });
  return session;
}

/**
 * devToken signs a token for a seed user with the apps' development secret,
 * as a login would: for a test whose app has a deadline too short for a
 * login's bcrypt on a busy machine.
 */
export function devToken(username = 'editor', role = username) {
  return createTokens(DEV_AUTH_SECRET, 60 * 60 * 1000).issue({ id: 1, username, role }).token;
}

/** gql posts one GraphQL request to url's /graphql and resolves with { status, headers, body }. */
export async function gql(url, query, { variables, token } = {}) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** graphqlLogin returns a token for the user from a GraphQL app's login (the seed's passwords are the names). */
export async function graphqlLogin(url, username = 'editor', password = username) {
  const { body } = await gql(url, 'mutation Login($u: String!, $p: String!) { login(username: $u, password: $p) { token } }', {
    variables: { u: username, p: password },
  });
  if (!body.data?.login) throw new Error(`login as ${username}: ${JSON.stringify(body.errors)}`);
  return body.data.login.token;
}

/** restLogin returns a token for the user from a REST app's /api/login (the seed's passwords are the names). */
export async function restLogin(url, username = 'editor', password = username) {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login as ${username}: ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}
