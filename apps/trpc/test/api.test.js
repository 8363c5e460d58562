import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { databaseClient } from '@crudbench/node-base/test-kit/database.js';
import { DATABASE_URL, call, devToken, login, startApp } from './start.js';

// The trpc kind's contract (docs/contract.md): every procedure, its
// answers as REST's, its refusals in tRPC's codes, against the seeded
// database.

describe('trpc keeps the contract', () => {
  let app;
  let editor;
  let viewer;
  let db;

  before(async () => {
    app = await startApp();
    [editor, viewer] = await Promise.all([login(app.url, 'editor'), login(app.url, 'viewer')]);
    db = databaseClient(DATABASE_URL);
    await db.connect();
  });

  after(async () => {
    await db?.end();
    assert.equal(await app?.stop(), 0, 'graceful shutdown exits 0');
  });

  /** refused asserts that an answer is tRPC's error code at status, with fields when given. */
  const refused = (res, status, code, fields) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.match(res.headers.get('content-type'), /^application\/json/);
    const { error } = res.body;
    assert.equal(error.data.code, code, JSON.stringify(res.body));
    assert.equal(error.data.httpStatus, status);
    assert.equal(typeof error.code, 'number', 'the JSON-RPC code');
    assert.equal(error.data.stack, undefined, 'no stack in an answer');
    if (fields) assert.deepEqual(error.data.fields, fields);
  };

  describe('health', () => {
    test('healthz answers ok, readyz ready, outside tRPC', async () => {
      const live = await fetch(`${app.url}/healthz`);
      assert.equal(live.status, 200);
      assert.equal(await live.text(), 'ok');
      const ready = await fetch(`${app.url}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: 'ready' });
    });
  });

  describe('reads', () => {
    test('person.byId nests 12 appointments, 36 stipends and 24 fundings, as REST answers them', async () => {
      const res = await call(app.url, 'person.byId', { id: 1 }, { token: viewer });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type'), /^application\/json/);
      const p = res.body.result.data;
      assert.equal(`${p.firstName} ${p.lastName}`, 'Ada Lovelace');
      assert.equal(p.appointments.length, 12);
      assert.equal(p.appointments.flatMap((a) => a.stipends).length, 36);
      assert.equal(p.appointments.flatMap((a) => a.fundings).length, 24);
      assert.deepEqual(Object.keys(p.appointments[0].stipends[0].payer), ['id', 'code', 'name', 'kind']);
      assert.equal(p.appointments[11].endsOn, null);
      const { rows } = await db.query('SELECT email, version FROM person WHERE id = 1');
      assert.equal(p.email, rows[0].email);
      assert.equal(p.version, rows[0].version);
    });

    test('vacancy.list with status open lists only open ones, in id order, as many as the database has', async () => {
      const res = await call(app.url, 'vacancy.list', { status: 'open', limit: 100 }, { token: viewer });
      assert.equal(res.status, 200);
      const { items, nextCursor } = res.body.result.data;
      const { rows } = await db.query("SELECT count(*)::int AS n FROM vacancy WHERE status = 'open'");
      assert.equal(items.length, Math.min(rows[0].n, 100));
      assert.ok(items.every((v) => v.status === 'open'));
      assert.deepEqual(
        items.map((v) => v.id),
        items.map((v) => v.id).toSorted((a, b) => a - b),
      );
      assert.equal(nextCursor, null);
    });

    test('person.list pages in name order and its cursor continues where the page ended', async () => {
      const first = (await call(app.url, 'person.list', { limit: 3 }, { token: viewer })).body.result.data;
      assert.equal(first.items.length, 3);
      const next = (await call(app.url, 'person.list', { limit: 3, after: first.nextCursor }, { token: viewer })).body.result.data;
      const all = (await call(app.url, 'person.list', { limit: 6 }, { token: viewer })).body.result.data;
      assert.deepEqual(
        [...first.items, ...next.items].map((p) => p.id),
        all.items.map((p) => p.id),
      );
      const everyone = (await call(app.url, 'person.list', { limit: 1000 }, { token: viewer })).body.result.data;
      const { rows } = await db.query('SELECT count(*)::int AS n FROM person');
      assert.equal(everyone.items.length, rows[0].n);
    });

    test('person.list and vacancy.list without input answer the first page of 50', async () => {
      for (const procedure of ['person.list', 'vacancy.list']) {
        const res = await call(app.url, procedure, undefined, { token: viewer });
        assert.equal(res.status, 200, procedure);
        assert.equal(res.body.result.data.items.length, 50, procedure);
      }
    });
  });

  describe('write cycle', () => {
    test('create, update with its version, stale update, delete, read back', async () => {
      const created = await call(
        app.url,
        'vacancy.create',
        {
          title: 'trpc test vacancy',
          department: 'Testing',
          location: 'Lab',
          employmentType: 'full_time',
          salaryMinCents: 100,
          salaryMaxCents: 200,
          status: 'draft',
          opensOn: '2026-01-01',
          description: 'written by the trpc tests',
        },
        { mutation: true, token: editor },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const v = created.body.result.data;
      assert.equal(v.version, 1);
      assert.equal(v.closesOn, null);
      try {
        const updated = await call(
          app.url,
          'vacancy.update',
          { id: v.id, version: 1, title: 'trpc test, edited' },
          { mutation: true, token: editor },
        );
        assert.equal(updated.status, 200, JSON.stringify(updated.body));
        assert.equal(updated.body.result.data.version, 2);
        const stale = await call(app.url, 'vacancy.update', { id: v.id, version: 1, title: 'lost' }, { mutation: true, token: editor });
        refused(stale, 409, 'CONFLICT', { version: 'is stale: the current version is newer than the one sent' });
        const noVersion = await call(app.url, 'vacancy.update', { id: v.id, title: 'lost' }, { mutation: true, token: editor });
        refused(noVersion, 412, 'PRECONDITION_FAILED', { version: 'is required' });
        const read = await call(app.url, 'vacancy.byId', { id: v.id }, { token: viewer });
        assert.equal(read.body.result.data.title, 'trpc test, edited');
        const { rows } = await db.query('SELECT title, version FROM vacancy WHERE id = $1', [v.id]);
        assert.deepEqual(rows[0], { title: 'trpc test, edited', version: 2 });
      } finally {
        const deleted = await call(app.url, 'vacancy.delete', { id: v.id }, { mutation: true, token: editor });
        assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
        assert.deepEqual(deleted.body, { result: { data: null } });
      }
      refused(await call(app.url, 'vacancy.byId', { id: v.id }, { token: viewer }), 404, 'NOT_FOUND');
      refused(await call(app.url, 'vacancy.delete', { id: v.id }, { mutation: true, token: editor }), 404, 'NOT_FOUND');
    });
  });

  describe('refusals', () => {
    test('no token, a bad token: UNAUTHORIZED with WWW-Authenticate; a viewer writing: FORBIDDEN', async () => {
      const none = await call(app.url, 'person.byId', { id: 1 });
      refused(none, 401, 'UNAUTHORIZED');
      assert.match(none.body.error.message, /log in first/);
      assert.match(none.headers.get('www-authenticate'), /^Bearer/);
      refused(await call(app.url, 'person.byId', { id: 1 }, { token: 'not-a-token' }), 401, 'UNAUTHORIZED');
      refused(await call(app.url, 'vacancy.delete', { id: 1 }, { mutation: true, token: viewer }), 403, 'FORBIDDEN');
      const wrong = await call(app.url, 'auth.login', { username: 'editor', password: 'wrong' }, { mutation: true });
      refused(wrong, 401, 'UNAUTHORIZED');
      assert.equal(wrong.body.error.message, 'invalid username or password');
    });

    for (const [name, procedure, input, fields, mutation] of [
      ['an id of 0', 'person.byId', { id: 0 }, { id: 'must be a positive whole number' }],
      ['an id as a string', 'person.byId', { id: '1' }, { id: 'must be a positive whole number' }],
      ['no id', 'person.byId', {}, { id: 'is required' }],
      ['a member the input does not take', 'person.byId', { id: 1, extra: true }, { extra: 'is not a field of this request' }],
      ['a page of 0', 'person.list', { limit: 0 }, { limit: 'must be a whole number from 1 to 1000' }],
      ['a page of 1001', 'vacancy.list', { limit: 1001 }, { limit: 'must be a whole number from 1 to 1000' }],
      ['a cursor this list did not write', 'person.list', { after: 'nonsense' }, { after: 'is not a cursor returned by this list' }],
      ['an unknown status', 'vacancy.list', { status: 'gone' }, { status: 'must be one of draft, open, closed, filled' }],
      [
        'a create without a title, with a bad date',
        'vacancy.create',
        { opensOn: '2026-02-30' },
        { opensOn: 'must be a date written YYYY-MM-DD' },
        true,
      ],
      [
        'a create the store refuses',
        'vacancy.create',
        {
          title: '',
          department: 'D',
          location: 'L',
          employmentType: 'full_time',
          salaryMinCents: 2,
          salaryMaxCents: 1,
          opensOn: '2026-01-01',
        },
        { salaryMaxCents: 'must not be less than salaryMinCents', title: 'is required' },
        true,
      ],
      [
        'a salary that is no whole number',
        'vacancy.update',
        { id: 1, version: 1, salaryMaxCents: 1.5 },
        { salaryMaxCents: 'must be a whole number from -9223372036854775808 to 9223372036854775807' },
        true,
      ],
    ]) {
      test(`${name}: BAD_REQUEST naming the field`, async () => {
        const res = await call(app.url, procedure, input, { token: editor, mutation });
        refused(res, 400, 'BAD_REQUEST', fields);
      });
    }

    test('a query whose escapes are not UTF-8: BAD_REQUEST naming the input, as REST names q', async () => {
      for (const query of ['input=%ff', `input=${encodeURIComponent('{"q":"')}%ff%22%7D`]) {
        const res = await fetch(`${app.url}/trpc/person.list?${query}`, { headers: { Authorization: `Bearer ${viewer}` } });
        refused({ status: res.status, headers: res.headers, body: await res.json() }, 400, 'BAD_REQUEST', { input: 'must be valid UTF-8' });
      }
    });

    test('an input that is not JSON: BAD_REQUEST', async () => {
      const res = await call(app.url, 'person.byId', '{"id":', { token: viewer });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.data.stack, undefined);
    });

    test('a mutation sent as a GET, a query as a POST: METHOD_NOT_SUPPORTED', async () => {
      refused(await call(app.url, 'vacancy.delete', { id: 1 }, { token: editor }), 405, 'METHOD_NOT_SUPPORTED');
      refused(await call(app.url, 'person.byId', { id: 1 }, { mutation: true, token: editor }), 405, 'METHOD_NOT_SUPPORTED');
    });

    test('an unknown procedure, a path outside /trpc/: NOT_FOUND', async () => {
      refused(await call(app.url, 'person.nothing', undefined, { token: viewer }), 404, 'NOT_FOUND');
      const res = await fetch(`${app.url}/api/persons/1`);
      const body = await res.json();
      assert.equal(res.status, 404);
      assert.equal(body.error.data.code, 'NOT_FOUND');
    });

    test('a batch: refused, the runner and this app send one call a request', async () => {
      const res = await fetch(
        `${app.url}/trpc/person.byId,person.byId?batch=1&input=${encodeURIComponent('{"0":{"id":1},"1":{"id":1}}')}`,
        {
          headers: { Authorization: `Bearer ${viewer}` },
        },
      );
      assert.equal(res.status, 400);
      assert.equal((await res.json()).error.data.code, 'BAD_REQUEST');
    });

    test('a body over 1 MiB: PAYLOAD_TOO_LARGE before it is read', async () => {
      const res = await call(app.url, 'vacancy.create', JSON.stringify({ description: 'x'.repeat(1 << 20) }), {
        mutation: true,
        token: editor,
      });
      refused(res, 413, 'PAYLOAD_TOO_LARGE');
    });
  });

  test('the login answers a token and its expiry, not to be cached', async () => {
    const res = await call(app.url, 'auth.login', { username: 'viewer', password: 'viewer' }, { mutation: true });
    assert.equal(res.status, 200);
    assert.match(res.body.result.data.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.match(res.body.result.data.expiresAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });
});

describe('trpc in an outage', () => {
  test('a database that does not answer in time: SERVICE_UNAVAILABLE with Retry-After', async () => {
    // A database that takes every connection and never answers: the
    // request deadline ends the wait.
    const sockets = new Set();
    const silent = createServer((s) => sockets.add(s));
    await new Promise((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const app = await startApp({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${silent.address().port}/crudbench?sslmode=disable`,
      REQUEST_TIMEOUT: '500ms',
    });
    try {
      const res = await call(app.url, 'person.byId', { id: 1 }, { token: devToken() });
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.error.data.code, 'SERVICE_UNAVAILABLE');
      assert.equal(res.headers.get('retry-after'), '5');
      const ready = await fetch(`${app.url}/readyz`);
      assert.equal(ready.status, 503);
    } finally {
      assert.equal(await app.stop(), 0);
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  test('METRICS_ADDR serves the process figures the bench reads', async () => {
    const probe = createServer();
    await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = probe.address().port;
    await new Promise((resolve) => probe.close(resolve));
    const app = await startApp({ METRICS_ADDR: `127.0.0.1:${port}` });
    try {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      for (const metric of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'pgxpool_acquire_count']) {
        assert.match(text, new RegExp(`^${metric}`, 'm'), metric);
      }
    } finally {
      assert.equal(await app.stop(), 0);
    }
  });
});
