import assert from 'node:assert/strict';
import grpc from '@grpc/grpc-js';
import { LATE_MS, REQUEST_TIMEOUT_MS, describeFrozen, eventually } from '@crudbench/node-base/test-kit/frozen.js';
import { DATABASE_URL, bearer, call, details, devToken, startApp } from './start.js';

const { status: Code } = grpc;

// node-base's frozen-database suite, for gRPC: PostgreSQL's processes
// stopped, every call UNAVAILABLE with RetryInfo at the deadline.
const title = `every call is UNAVAILABLE with RetryInfo within the deadline and ${LATE_MS} ms; a client's shorter deadline is DEADLINE_EXCEEDED; the app recovers`;

describeFrozen('grpc-node', { start: startApp, databaseUrl: DATABASE_URL }, title, async (app, freeze) => {
  // A token signed here: a login's bcrypt under a 1 s deadline is no read.
  const metadata = bearer(devToken('viewer'));
  const reads = [
    ['GetPerson', { id: 1 }],
    ['ListVacancies', { status: 2, page_size: 100 }],
    ['ListPersons', { page_size: 1000 }],
  ];
  for (const [method, req] of reads) {
    const { error } = await call(app.staff, method, req, { metadata });
    assert.equal(error, undefined, `${method} before the freeze: ${error?.details}`);
  }
  const answers = await freeze(async () => {
    const server = Array.from({ length: 4 }, () => reads)
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
  const { error } = await eventually(
    () => call(app.staff, 'GetPerson', { id: 1 }, { metadata }),
    (answer) => !answer.error,
  );
  assert.equal(error, undefined, `GetPerson after the freeze: ${error?.details}`);
});
