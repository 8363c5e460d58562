import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { devToken } from './app.js';
import { databaseClient } from './database.js';
import { WAIT_MS } from './socket.js';

/**
 * REQUEST_TIMEOUT_MS is the request deadline a frozen-database suite
 * starts the app with, and LATE_MS how late after it an answer may come:
 * the brief the Go apps meet.
 */
export const REQUEST_TIMEOUT_MS = 1000;
export const LATE_MS = 1000;

/**
 * describeFrozen describes `${name} under a frozen database`: the app that
 * start(env) starts on the database at databaseUrl, with REQUEST_TIMEOUT_MS
 * as its deadline and a pool of 2 connections, and one test, title, whose
 * body(app, freeze) gets the app and freeze(fn), which runs fn with
 * PostgreSQL's processes stopped (frozen, below). The database must run on
 * this machine (its data directory readable, its processes signalable by
 * this user, as the test harness's throwaway cluster is); otherwise the
 * test fails, saying so — a skip would pass a suite that checked nothing.
 */
export function describeFrozen(name, { start, databaseUrl }, title, body) {
  describe(`${name} under a frozen database`, () => {
    let app;
    let postmaster;
    let unreachable;
    before(async () => {
      try {
        postmaster = await postmasterOf(databaseUrl);
      } catch (err) {
        unreachable = `PostgreSQL's processes cannot be stopped from here (${err.message}): run the tests against a PostgreSQL on this machine, such as the throwaway cluster go test -run TestNodeUnitTests ./bench/ starts`;
        return;
      }
      app = await start({ REQUEST_TIMEOUT: `${REQUEST_TIMEOUT_MS}ms`, DB_MAX_CONNS: '2' });
    });
    after(() => app?.stop());

    test(title, async () => {
      assert.ok(!unreachable, unreachable);
      await body(app, (fn) => frozen(postmaster, fn));
    });
  });
}

/**
 * describeFrozenDatabase checks that a Node HTTP app answers every request
 * 503 with Retry-After within its deadline while PostgreSQL's processes
 * are stopped (SIGSTOP on the postmaster and its children: connections
 * stay open and nothing answers, as a hung server or a dropped network
 * path), and serves again once they continue. More requests than the pool
 * has connections are sent at once, after the pool opened its connections.
 *
 * start(env) starts the app with env added to its environment and
 * resolves with { url, stop }; requests() returns the reads to send, each
 * [path, fetch init] (restReads or graphqlReads, below, for an app of the
 * contract); databaseUrl is as describeFrozen's.
 */
export function describeFrozenDatabase(name, { start, databaseUrl, requests }) {
  const title = `every request is answered 503 with Retry-After within the deadline and ${LATE_MS} ms`;
  describeFrozen(name, { start, databaseUrl }, title, async (app, freeze) => {
    const reads = requests();
    // The pool's connections open, and the statements are prepared, first.
    for (const [path, init] of reads) {
      const res = await fetch(`${app.url}${path}`, init);
      assert.equal(res.status, 200, `${path} before the freeze: ${res.status} ${await res.text()}`);
    }
    const answers = await freeze(() =>
      Promise.all(
        Array.from({ length: 4 }, () => reads)
          .flat()
          .map(async ([path, init]) => {
            const sent = performance.now();
            try {
              const res = await fetch(`${app.url}${path}`, { ...init, signal: AbortSignal.timeout(WAIT_MS) });
              await res.arrayBuffer();
              return { path, status: res.status, retryAfter: res.headers.get('retry-after'), took: performance.now() - sent };
            } catch (err) {
              return { path, error: err.message };
            }
          }),
      ),
    );
    for (const a of answers) {
      assert.equal(a.error, undefined, `${a.path}: no answer (${a.error})`);
      assert.equal(a.status, 503, `${a.path}: ${a.status}`);
      assert.ok(a.retryAfter, `${a.path}: 503 without Retry-After`);
      assert.ok(a.took < REQUEST_TIMEOUT_MS + LATE_MS, `${a.path}: answered after ${Math.round(a.took)} ms, want ${REQUEST_TIMEOUT_MS}`);
    }
    // Once PostgreSQL continues, so does the app.
    const [path, init] = reads[0];
    const status = await eventually(
      async () => (await fetch(`${app.url}${path}`, init)).status,
      (s) => s === 200,
    );
    assert.equal(status, 200, `${path} after the freeze`);
  });
}

/**
 * restReads are the runner's REST reads (docs/contract.md), for
 * describeFrozenDatabase's requests, with a token signed here: a login's
 * bcrypt under a 1 s deadline is no read.
 */
export function restReads() {
  const auth = { headers: { Authorization: `Bearer ${devToken()}` } };
  return [
    ['/api/persons/1', auth],
    ['/api/vacancies?status=open&limit=100', auth],
    ['/api/persons?limit=1000', auth],
  ];
}

// The runner's GraphQL reads: a person in four statements, one list each.
const GRAPHQL_READS = [
  '{ person(id: 1) { id firstName appointments { id stipends { id payer { code } } fundings { percent payer { code } } } } }',
  '{ vacancies(status: OPEN, first: 100) { nodes { id title } } }',
  '{ persons(first: 1000) { nodes { id firstName lastName } } }',
];

/** graphqlReads are restReads for a GraphQL app: the same reads, posted to /graphql. */
export function graphqlReads() {
  const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${devToken()}` };
  return GRAPHQL_READS.map((query) => ['/graphql', { method: 'POST', headers, body: JSON.stringify({ query }) }]);
}

/**
 * eventually calls probe, 100 ms apart, until done(its answer) holds or
 * WAIT_MS has passed, and resolves with its last answer: how a test waits
 * for an app to recover, however slowly a loaded machine lets it.
 */
export async function eventually(probe, done) {
  const give = performance.now() + WAIT_MS;
  let answer = await probe();
  while (!done(answer) && performance.now() < give) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await probe();
  }
  return answer;
}

/**
 * frozen runs fn with the postmaster and its children (the backends of
 * the app's open connections among them) stopped, and continues them
 * after, whatever fn does; the test process continues them too should it
 * exit between the two.
 */
export async function frozen(postmaster, fn) {
  const pids = [postmaster, ...childrenOf(postmaster)];
  const signal = (sig) => {
    for (const pid of pids) {
      try {
        process.kill(pid, sig);
      } catch {
        // a backend that ended meanwhile
      }
    }
  };
  const thaw = () => signal('SIGCONT');
  process.once('exit', thaw);
  signal('SIGSTOP');
  try {
    return await fn();
  } finally {
    thaw();
    process.off('exit', thaw);
  }
}

/**
 * postmasterOf returns the pid of the postmaster serving databaseUrl, read
 * from its data directory's postmaster.pid; it throws when that is not on
 * this machine or not a process this user may signal.
 */
export async function postmasterOf(databaseUrl) {
  const client = databaseClient(databaseUrl);
  await client.connect();
  let dir;
  try {
    dir = (await client.query('SHOW data_directory')).rows[0].data_directory;
  } finally {
    await client.end();
  }
  const pid = Number(readFileSync(`${dir}/postmaster.pid`, 'latin1').split('\n')[0]);
  process.kill(pid, 0);
  return pid;
}

/** childrenOf returns the pids of the processes whose parent is pid, from /proc. */
function childrenOf(pid) {
  const children = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent is the field after the command's closing parenthesis and the state.
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // a process that ended meanwhile
    }
  }
  return children;
}
