import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { WAIT_MS } from './socket.js';

// The request deadline the suite starts the app with, and how late after it
// an answer may come: the brief the Go apps meet.
const REQUEST_TIMEOUT_MS = 1000;
const LATE_MS = 1000;

/**
 * describeFrozenDatabase checks that a Node app answers every request 503
 * with Retry-After within its deadline while PostgreSQL's processes are
 * stopped (SIGSTOP on the postmaster and its children: connections stay
 * open and nothing answers, as a hung server or a dropped network path),
 * and serves again once they continue. More requests than the pool has
 * connections are sent at once, after the pool opened its connections.
 *
 * start(env) starts the app on the database at databaseUrl with env added
 * to its environment and resolves with { url, stop }; requests() returns
 * the reads to send, each [path, fetch init]. The database must run on
 * this machine (its data directory readable, its processes signalable by
 * this user, as the test harness's throwaway cluster is); otherwise the
 * suite fails, saying so — a skip would pass a suite that checked nothing.
 */
export function describeFrozenDatabase(name, { start, databaseUrl, requests }) {
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

    test(`every request is answered 503 with Retry-After within the deadline and ${LATE_MS} ms`, async () => {
      assert.ok(!unreachable, unreachable);
      const reads = requests();
      // The pool's connections open, and the statements are prepared, first.
      for (const [path, init] of reads) {
        const res = await fetch(`${app.url}${path}`, init);
        assert.equal(res.status, 200, `${path} before the freeze: ${res.status} ${await res.text()}`);
      }
      const answers = await frozen(postmaster, () =>
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
      const give = performance.now() + WAIT_MS;
      let status;
      while (performance.now() < give) {
        status = (await fetch(`${app.url}${path}`, init)).status;
        if (status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(status, 200, `${path} after the freeze`);
    });
  });
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
  const client = new pg.Client({ connectionString: databaseUrl });
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
