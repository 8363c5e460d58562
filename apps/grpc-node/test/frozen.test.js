import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import grpc from '@grpc/grpc-js';
import { frozen, postmasterOf } from '@crudbench/node-base/test-kit/frozen.js';
import { DATABASE_URL, bearer, call, details, devToken, startApp } from './start.js';

const { status: Code } = grpc;

// The request deadline the suite starts the app with, and how late after it
// an answer may come: node-base's frozen-database suite, for gRPC.
const REQUEST_TIMEOUT_MS = 1000;
const LATE_MS = 1000;

describe('grpc-node under a frozen database', () => {
  let app;
  let postmaster;
  let unreachable;
  before(async () => {
    try {
      postmaster = await postmasterOf(DATABASE_URL);
    } catch (err) {
      unreachable = `PostgreSQL's processes cannot be stopped from here (${err.message}): run the tests against a PostgreSQL on this machine, such as the throwaway cluster go test -run TestNodeUnitTests ./bench/ starts`;
      return;
    }
    app = await startApp({ REQUEST_TIMEOUT: `${REQUEST_TIMEOUT_MS}ms`, DB_MAX_CONNS: '2' });
  });
  after(() => app?.stop());

  // A token signed here: a login's bcrypt under a 1 s deadline is no read.
  const reads = () => [
    ['GetPerson', { id: 1 }],
    ['ListVacancies', { status: 2, page_size: 100 }],
    ['ListPersons', { page_size: 1000 }],
  ];

  test(`every call is UNAVAILABLE with RetryInfo within the deadline and ${LATE_MS} ms; a client's shorter deadline is DEADLINE_EXCEEDED; the app recovers`, async () => {
    assert.ok(!unreachable, unreachable);
    const metadata = bearer(devToken('viewer'));
    for (const [method, req] of reads()) {
      const { error } = await call(app.staff, method, req, { metadata });
      assert.equal(error, undefined, `${method} before the freeze: ${error?.details}`);
    }
    const answers = await frozen(postmaster, async () => {
      const server = Array.from({ length: 4 }, () => reads())
        .flat()
        .map(async ([method, req]) => {
          const sent = performance.now();
          const { error } = await call(app.staff, method, req, { metadata, deadlineMs: 10_000 });
          return { method, error, took: performance.now() - sent };
        });
      const client = call(app.staff, 'GetPerson', { id: 1 }, { metadata, deadlineMs: 300 });
      const health = call(app.health, 'Check', { service: 'crudbench.v1.Staff' });
      return { server: await Promise.all(server), client: await client, health: await health };
    });
    for (const a of answers.server) {
      assert.equal(a.error?.code, Code.UNAVAILABLE, `${a.method}: ${a.error?.code} ${a.error?.details}`);
      const [d] = details(a.error);
      assert.equal(d?.type, 'google.rpc.RetryInfo', `${a.method}: no RetryInfo`);
      assert.equal(d.value.retry_delay.seconds, 5);
      assert.ok(a.took < REQUEST_TIMEOUT_MS + LATE_MS, `${a.method}: answered after ${Math.round(a.took)} ms`);
    }
    assert.equal(answers.client.error?.code, Code.DEADLINE_EXCEEDED);
    assert.equal(answers.health.response?.status, 2, 'crudbench.v1.Staff is NOT_SERVING while the database is frozen');
    const give = performance.now() + 10_000;
    let error;
    while (performance.now() < give) {
      ({ error } = await call(app.staff, 'GetPerson', { id: 1 }, { metadata }));
      if (!error) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(error, undefined, `GetPerson after the freeze: ${error?.details}`);
  });
});
