import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startSession } from '@crudbench/node-base/test-kit/app.js';
import { databaseClient } from '@crudbench/node-base/test-kit/database.js';
import { DATABASE_URL, call, devToken, login, startApp } from './start.js';

// The trpc kind's contract (docs/contract.md), as apps/trpc/test/api.test.js
// holds the trpc app to it: crudbench-trpc's router at /trpc/ through
// tRPC's fetch adapter, its answers as REST's, its refusals in tRPC's
// codes, against the seeded database.

/** refused asserts that an answer is tRPC's error code at status, with fields when given. */
function refused(res, status, code, fields) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type'), /^application\/json/);
  const { error } = res.body;
  assert.equal(error.data.code, code, JSON.stringify(res.body));
  assert.equal(error.data.httpStatus, status);
  assert.equal(typeof error.code, 'number', 'the JSON-RPC code');
  assert.equal(error.data.stack, undefined, 'no stack in an answer');
  if (fields) assert.deepEqual(error.data.fields, fields);
}

describe('next-trpc keeps the contract', () => {
  let app;
  let editor;
  let viewer;
  let db;
  startSession(startApp, {
    login: (started, username) => login(started.url, username),
    onStart: (session) => ({ app, editor, viewer, db } = session),
  });

  test('person.byId nests 12 appointments, 36 stipends and 24 fundings, as REST answers them', async () => {
    const res = await call(app.url, 'person.byId', { id: 1 }, { token: viewer });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const p = res.body.result.data;
    assert.equal(`${p.firstName} ${p.lastName}`, 'Ada Lovelace');
    assert.equal(p.appointments.length, 12);
    assert.equal(p.appointments.flatMap((a) => a.stipends).length, 36);
    assert.equal(p.appointments.flatMap((a) => a.fundings).length, 24);
    const rest = await (await fetch(`${app.url}/api/persons/1`, { headers: { Authorization: `Bearer ${viewer}` } })).json();
    assert.deepEqual(p, rest, 'the same person as the REST route answers');
  });

  test('vacancy.list with status open lists only open ones, in id order', async () => {
    const res = await call(app.url, 'vacancy.list', { status: 'open', limit: 1000 }, { token: viewer });
    const { rows } = await db.query("SELECT id FROM vacancy WHERE status = 'open' ORDER BY id");
    assert.deepEqual(
      res.body.result.data.items.map((v) => v.id),
      rows.map((r) => Number(r.id)),
    );
  });

  test('create, update with its version, stale update, delete, read back', async () => {
    const created = await call(
      app.url,
      'vacancy.create',
      {
        title: 'next-trpc test vacancy',
        department: 'Testing',
        location: 'Lab',
        employmentType: 'full_time',
        salaryMinCents: 100,
        salaryMaxCents: 200,
        status: 'draft',
        opensOn: '2026-01-01',
      },
      { mutation: true, token: editor },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const v = created.body.result.data;
    assert.equal(v.version, 1);
    try {
      const updated = await call(app.url, 'vacancy.update', { id: v.id, version: 1, title: 'edited' }, { mutation: true, token: editor });
      assert.equal(updated.body.result.data.version, 2, JSON.stringify(updated.body));
      const stale = await call(app.url, 'vacancy.update', { id: v.id, version: 1, title: 'lost' }, { mutation: true, token: editor });
      refused(stale, 409, 'CONFLICT', { version: 'is stale: the current version is newer than the one sent' });
      refused(
        await call(app.url, 'vacancy.update', { id: v.id, title: 'lost' }, { mutation: true, token: editor }),
        412,
        'PRECONDITION_FAILED',
        {
          version: 'is required',
        },
      );
      const { rows } = await db.query('SELECT title, version FROM vacancy WHERE id = $1', [v.id]);
      assert.deepEqual(rows[0], { title: 'edited', version: 2 });
    } finally {
      const deleted = await call(app.url, 'vacancy.delete', { id: v.id }, { mutation: true, token: editor });
      assert.deepEqual(deleted.body, { result: { data: null } });
    }
    refused(await call(app.url, 'vacancy.byId', { id: v.id }, { token: viewer }), 404, 'NOT_FOUND');
  });

  test('no token: UNAUTHORIZED with WWW-Authenticate; a viewer writing: FORBIDDEN; a wrong password: UNAUTHORIZED', async () => {
    const none = await call(app.url, 'person.byId', { id: 1 });
    refused(none, 401, 'UNAUTHORIZED');
    assert.match(none.headers.get('www-authenticate'), /^Bearer/);
    refused(await call(app.url, 'vacancy.delete', { id: 1 }, { mutation: true, token: viewer }), 403, 'FORBIDDEN');
    refused(await call(app.url, 'auth.login', { username: 'editor', password: 'wrong' }, { mutation: true }), 401, 'UNAUTHORIZED');
  });

  for (const [name, procedure, input, fields, mutation] of [
    ['an id of 0', 'person.byId', { id: 0 }, { id: 'must be a positive whole number' }],
    ['a member the input does not take', 'person.byId', { id: 1, extra: true }, { extra: 'is not a field of this request' }],
    ['a page of 1001', 'vacancy.list', { limit: 1001 }, { limit: 'must be a whole number from 1 to 1000' }],
    ['a cursor this list did not write', 'person.list', { after: 'nonsense' }, { after: 'is not a cursor returned by this list' }],
    ['a bad date', 'vacancy.create', { opensOn: '2026-02-30' }, { opensOn: 'must be a date written YYYY-MM-DD' }, true],
  ]) {
    test(`${name}: BAD_REQUEST naming the field`, async () => {
      refused(await call(app.url, procedure, input, { token: editor, mutation }), 400, 'BAD_REQUEST', fields);
    });
  }

  test('a mutation sent as a GET: METHOD_NOT_SUPPORTED; an unknown procedure: NOT_FOUND; a batch: BAD_REQUEST', async () => {
    refused(await call(app.url, 'vacancy.delete', { id: 1 }, { token: editor }), 405, 'METHOD_NOT_SUPPORTED');
    refused(await call(app.url, 'person.nothing', undefined, { token: viewer }), 404, 'NOT_FOUND');
    const batch = await fetch(
      `${app.url}/trpc/person.byId,person.byId?batch=1&input=${encodeURIComponent('{"0":{"id":1},"1":{"id":1}}')}`,
      {
        headers: { Authorization: `Bearer ${viewer}` },
      },
    );
    assert.equal(batch.status, 400);
  });

  test('the login answers a token, not to be cached', async () => {
    const res = await call(app.url, 'auth.login', { username: 'viewer', password: 'viewer' }, { mutation: true });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });
});

describe('next-trpc in an outage', () => {
  test('a database that does not answer in time: SERVICE_UNAVAILABLE with Retry-After', async () => {
    const app = await startApp({ REQUEST_TIMEOUT: '1s' });
    // A lock held by another session keeps every read of the table waiting.
    const blocker = databaseClient(DATABASE_URL);
    try {
      await blocker.connect();
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE vacancy IN ACCESS EXCLUSIVE MODE');
      const res = await call(app.url, 'vacancy.byId', { id: 1 }, { token: devToken() });
      refused(res, 503, 'SERVICE_UNAVAILABLE');
      assert.equal(res.headers.get('retry-after'), '5');
    } finally {
      await blocker.end();
      assert.equal(await app.stop(), 0);
    }
  });
});

describe('next-trpc refuses before tRPC runs', () => {
  let app;
  startSession(startApp, { onStart: (session) => ({ app } = session) });

  test('a query whose escapes are not UTF-8: BAD_REQUEST naming the input; a declared body over 1 MiB: PAYLOAD_TOO_LARGE', async () => {
    const bad = await fetch(`${app.url}/trpc/person.list?input=%ff`, { headers: { Authorization: `Bearer ${devToken('viewer')}` } });
    refused({ status: bad.status, headers: bad.headers, body: await bad.json() }, 400, 'BAD_REQUEST', { input: 'must be valid UTF-8' });
    const large = await call(app.url, 'vacancy.create', JSON.stringify({ description: 'x'.repeat(1 << 20) }), {
      mutation: true,
      token: devToken(),
    });
    refused(large, 413, 'PAYLOAD_TOO_LARGE');
  });
});
