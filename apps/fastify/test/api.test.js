// The Go rest app's contract, node-base's (test-kit/rest-contract.js),
// kept by this app: reads, writes, refusals and outages; and what only
// this app's schemas write.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openPool } from '@crudbench/node-base/store/pool.js';
import { personStore } from '@crudbench/node-base/store/persons.js';
import { vacancyStore } from '@crudbench/node-base/store/vacancies.js';
import { describeRESTContract } from '@crudbench/node-base/test-kit/rest-contract.js';
import { DATABASE_URL, login, startApp } from './start.js';

describeRESTContract('fastify', { startApp });

describe('serialization', () => {
  // fast-json-stringify writes what the response schemas list, in their
  // order; express writes the store's objects with JSON.stringify. The
  // same bytes, or a member was left out, reordered or retyped.
  let app;
  let editor;
  let pool;
  before(async () => {
    app = await startApp();
    editor = await login(app.url, 'editor');
    pool = openPool({ databaseUrl: DATABASE_URL, dbMaxConns: 1, requestTimeoutMs: 5000 }, 'crudbench-fastify-test');
  });
  after(async () => {
    await pool?.end();
    assert.equal(await app?.stop(), 0, 'graceful shutdown exits 0');
  });

  const reads = [
    ['/api/persons/1', () => personStore(pool).findDetail(1)],
    ['/api/persons/12', () => personStore(pool).findDetail(12)],
    ['/api/persons?limit=1000', () => personStore(pool).find({ limit: '1000' })],
    ['/api/persons?limit=2', () => personStore(pool).find({ limit: '2' })],
    ['/api/vacancies?limit=1000', () => vacancyStore(pool).find({ limit: '1000' })],
    ['/api/vacancies/1', () => vacancyStore(pool).findById(1)],
  ];
  for (const [path, read] of reads) {
    test(`${path} is the store's answer as JSON.stringify writes it, and a newline`, async () => {
      const res = await fetch(app.url + path, { headers: { Authorization: `Bearer ${editor}` } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.equal(await res.text(), `${JSON.stringify(await read())}\n`);
    });
  }

  test("a problem is the Go app's document, with a newline", async () => {
    const res = await fetch(`${app.url}/api/vacancies/0`, { headers: { Authorization: `Bearer ${editor}` } });
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
    assert.equal(
      await res.text(),
      '{"type":"about:blank","title":"Bad Request","status":400,"detail":"the id in the path must be a positive whole number","instance":"/api/vacancies/0","fields":{"id":"must be a positive whole number"}}\n',
    );
  });

  test("readyz and healthz are the Go apps' bytes", async () => {
    assert.equal(await (await fetch(`${app.url}/readyz`)).text(), '{"status":"ready"}');
    const res = await fetch(`${app.url}/healthz`);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await res.text(), 'ok');
  });
});
