import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import grpc from '@grpc/grpc-js';
import { DEV_AUTH_SECRET } from '@crudbench/node-base/config.js';
import { createTokens } from '@crudbench/node-base/tokens.js';
import { packageDefinition } from '../src/proto.js';
import { rpcTypes } from '../src/status.js';

// Tests run against a real PostgreSQL, migrated and seeded by the Go tool
// (go run ./db/dbctl migrate && go run ./db/dbctl seed); nothing is mocked.
export const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) {
  throw new Error(
    'DATABASE_URL is not set: the tests need a PostgreSQL migrated and seeded with ' +
      '"go run ./db/dbctl migrate" and "go run ./db/dbctl seed", e.g. DATABASE_URL=postgres://postgres@localhost:5432/crudbench?sslmode=disable',
  );
}

const MAIN = new URL('../src/main.js', import.meta.url).pathname;
const proto = grpc.loadPackageDefinition(packageDefinition);

/**
 * startApp runs the app as its own process on a free port, as it runs in
 * production, and resolves once it listens: { addr, staff, health, logs,
 * metricsUrl, stop }, staff and health grpc-js clients of it. stop sends
 * SIGTERM and resolves with the exit code.
 */
export async function startApp(env = {}) {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, DATABASE_URL, ADDR: '127.0.0.1:0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
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
  const { addr, metrics_addr: metricsAddr } = await listening;
  const insecure = grpc.credentials.createInsecure();
  const staff = new proto.crudbench.v1.Staff(addr, insecure);
  const health = new proto.grpc.health.v1.Health(addr, insecure);
  return {
    addr,
    staff,
    health,
    logs,
    metricsUrl: metricsAddr ? `http://127.0.0.1${metricsAddr}/metrics` : null,
    async stop() {
      staff.close();
      health.close();
      child.kill('SIGTERM');
      const [code] = await exited;
      return code;
    },
  };
}

/**
 * call makes a unary call and resolves with { response } or { error } (a
 * grpc-js ServiceError), the metadata sent as an object.
 */
export function call(client, method, request, { metadata = {}, deadlineMs } = {}) {
  const md = new grpc.Metadata();
  for (const [k, v] of Object.entries(metadata)) md.add(k, v);
  const options = deadlineMs ? { deadline: Date.now() + deadlineMs } : {};
  return new Promise((resolve) => {
    client[method](request, md, options, (error, response) => resolve(error ? { error } : { response }));
  });
}

/** bearer is the metadata of a token. */
export const bearer = (token) => ({ authorization: `Bearer ${token}` });

/** login returns a token for the user (the seed's passwords are the names). */
export async function login(app, username = 'editor', password = username) {
  const { response, error } = await call(app.staff, 'Login', { username, password });
  if (error) throw new Error(`login as ${username}: ${error.code} ${error.details}`);
  return response.token;
}

/** devToken signs a token for a seed user with the apps' development secret, as a login would. */
export function devToken(username = 'editor', role = username) {
  return createTokens(DEV_AUTH_SECRET, 60 * 60 * 1000).issue({ id: 1, username, role }).token;
}

/**
 * details decodes an error's grpc-status-details-bin: [{ type, value }],
 * value the decoded google.rpc.BadRequest or RetryInfo.
 */
export function details(error) {
  const [bin] = error.metadata?.get('grpc-status-details-bin') ?? [];
  if (!bin) return [];
  const status = rpcTypes.Status.decode(bin);
  return status.details.map((any) => {
    const type = any.type_url.replace('type.googleapis.com/', '');
    const decoder = { 'google.rpc.BadRequest': rpcTypes.BadRequest, 'google.rpc.RetryInfo': rpcTypes.RetryInfo }[type];
    return { type, value: decoder ? decoder.toObject(decoder.decode(any.value), { longs: Number }) : null };
  });
}
