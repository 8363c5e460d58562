import assert from 'node:assert/strict';
import { test } from 'node:test';
import { databaseClient } from '@crudbench/node-base/test-kit/database.js';
import { DATABASE_URL, devToken, startApp } from './start.js';

test('a database that does not answer in time gets 503 with Retry-After', async () => {
  // A token signed here, not a login: the login's bcrypt would run under
  // the same 1 s deadline, which a busy machine can spend on it alone.
  const app = await startApp({ REQUEST_TIMEOUT: '1s' });
  // A lock held by another session keeps every read of the table waiting.
  const blocker = databaseClient(DATABASE_URL);
  try {
    const token = devToken();
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE vacancy IN ACCESS EXCLUSIVE MODE');
    const started = Date.now();
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ vacancy(id: 1) { id } }' }),
    });
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '5');
    const body = await res.json();
    assert.equal(body.errors[0].extensions.code, 'UNAVAILABLE');
    assert.equal(body.errors[0].message, 'the database did not answer in time');
    assert.ok(Date.now() - started < 3000, 'answered near the deadline');
  } finally {
    await blocker.end(); // ends the transaction, and the lock with it
    await app.stop();
  }
});

test('readyz answers 503 when the database is unreachable, healthz still 200', async () => {
  // Port 1 on loopback refuses connections at once.
  const app = await startApp({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none?sslmode=disable' });
  try {
    assert.equal((await fetch(`${app.url}/readyz`)).status, 503);
    assert.equal((await fetch(`${app.url}/healthz`)).status, 200);
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { login(username: "editor", password: "editor") { token } }' }),
    });
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '5');
  } finally {
    await app.stop();
  }
});

test('METRICS_ADDR serves the process figures the bench reads', async () => {
  const app = await startApp({ METRICS_ADDR: '127.0.0.1:0' });
  try {
    const addr = app.logs.find((l) => l.msg === 'listening').metrics_addr;
    const text = await (await fetch(`http://127.0.0.1${addr}/metrics`)).text();
    assert.match(text, /^process_cpu_seconds_total \d/m);
    assert.match(text, /^process_resident_memory_bytes \d/m);
  } finally {
    await app.stop();
  }
});
