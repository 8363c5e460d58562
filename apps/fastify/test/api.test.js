import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseClient } from '@crudbench/node-base/test-kit/database.js';
import { openPool } from '@crudbench/node-base/store/pool.js';
import { personStore } from '@crudbench/node-base/store/persons.js';
import { vacancyStore } from '@crudbench/node-base/store/vacancies.js';
import { DATABASE_URL, login, startApp } from './start.js';

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

const call = async (method, path, { token = editor, body, headers = {} } = {}) => {
  const res = await fetch(app.url + path, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
};

describe('health', () => {
  test('healthz answers ok without a database round trip', async () => {
    const res = await fetch(`${app.url}/healthz`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'ok');
  });

  test('readyz answers 200 while the database answers', async () => {
    const res = await fetch(`${app.url}/readyz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ready' });
  });
});

describe('reads', () => {
  test('person detail nests 12 appointments, 36 stipends and 24 fundings for the showcase person', async () => {
    const { status, headers, body } = await call('GET', '/api/persons/1');
    assert.equal(status, 200);
    assert.equal(headers.get('content-type'), 'application/json');
    assert.equal(headers.get('etag'), `"${body.version}"`);
    assert.equal(body.id, 1);
    assert.equal(body.employeeNo, 1000);
    assert.equal(`${body.firstName} ${body.lastName}`, 'Ada Lovelace');
    assert.equal(body.appointments.length, 12);
    assert.equal(body.appointments.flatMap((a) => a.stipends).length, 36);
    assert.equal(body.appointments.flatMap((a) => a.fundings).length, 24);
    const { rows } = await db.query('SELECT created_at::text AS c, hired_on::text AS h FROM person WHERE id = 1');
    assert.equal(Date.parse(body.createdAt), Date.parse(rows[0].c), 'createdAt is the stored instant');
    assert.match(body.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, 'RFC 3339 in UTC');
    assert.equal(body.hiredOn, rows[0].h);
    const a = body.appointments[0];
    assert.equal(typeof a.fte, 'number');
    assert.equal(typeof a.fundings[0].percent, 'number');
    assert.deepEqual(Object.keys(a.stipends[0].payer), ['id', 'code', 'name', 'kind']);
  });

  test('open vacancies are only open ones, in id order', async () => {
    const { status, body } = await call('GET', '/api/vacancies?status=open&limit=100');
    assert.equal(status, 200);
    const { rows } = await db.query("SELECT id FROM vacancy WHERE status = 'open' ORDER BY id LIMIT 100");
    assert.deepEqual(
      body.items.map((v) => v.id),
      rows.map((r) => Number(r.id)),
    );
    assert.ok(body.items.every((v) => v.status === 'open'));
  });

  test('persons page in name order and the cursor continues where the page ended', async () => {
    const first = await call('GET', '/api/persons?limit=3');
    const second = await call('GET', `/api/persons?limit=3&after=${first.body.nextCursor}`);
    const { rows } = await db.query('SELECT id FROM person ORDER BY last_name, first_name, id LIMIT 6');
    assert.deepEqual(
      [...first.body.items, ...second.body.items].map((p) => p.id),
      rows.map((r) => Number(r.id)),
    );
  });

  test('the whole person list fits one page of 1000', async () => {
    const { body } = await call('GET', '/api/persons?limit=1000');
    const { rows } = await db.query('SELECT count(*)::int AS n FROM person');
    assert.equal(body.items.length, rows[0].n);
    assert.equal(body.nextCursor, null);
  });
});

describe('serialization', () => {
  // fast-json-stringify writes what the response schemas list, in their
  // order; express writes the store's objects with JSON.stringify. The
  // same bytes, or a member was left out, reordered or retyped.
  let pool;
  before(() => {
    pool = openPool({ databaseUrl: DATABASE_URL, dbMaxConns: 1, requestTimeoutMs: 5000 }, 'crudbench-fastify-test');
  });
  after(() => pool?.end());

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

describe('write cycle', () => {
  test('create, update with If-Match, stale update, delete', async () => {
    const created = await call('POST', '/api/vacancies', {
      body: {
        title: 'Node test vacancy',
        department: 'Biology',
        location: 'Bologna',
        employmentType: 'full_time',
        salaryMinCents: 4000000,
        salaryMaxCents: 5000000,
        status: 'draft',
        opensOn: '2026-01-01',
        description: 'x',
      },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.version, 1);
    assert.equal(created.body.closesOn, null);
    const id = created.body.id;
    assert.equal(created.headers.get('location'), `/api/vacancies/${id}`);

    const updated = await call('PATCH', `/api/vacancies/${id}`, {
      body: { title: 'Renamed', closesOn: '2026-02-01' },
      headers: { 'If-Match': '"1"' },
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.version, 2);
    assert.equal(updated.headers.get('etag'), '"2"');

    const stale = await call('PATCH', `/api/vacancies/${id}`, { body: { version: 1, title: 'Lost' } });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.fields.version, 'is stale: the current version is newer than the one sent');

    const cleared = await call('PATCH', `/api/vacancies/${id}`, { body: { version: 2, closesOn: null } });
    assert.equal(cleared.body.closesOn, null);

    assert.equal((await call('DELETE', `/api/vacancies/${id}`)).status, 204);
    assert.equal((await call('GET', `/api/vacancies/${id}`)).status, 404);
  });
});

describe('refusals', () => {
  // The Go rest app answers each of these with the same status (and, where
  // the message is ours, the same problem fields).
  const cases = [
    { name: 'no token', method: 'GET', path: '/api/persons/1', token: '', status: 401 },
    { name: 'bad token', method: 'GET', path: '/api/persons/1', token: 'a.b.c', status: 401 },
    { name: 'viewer writes', method: 'DELETE', path: '/api/vacancies/1', viewer: true, status: 403 },
    { name: 'id not a number', method: 'GET', path: '/api/vacancies/abc', status: 400, fields: { id: 'must be a positive whole number' } },
    { name: 'unknown vacancy', method: 'GET', path: '/api/vacancies/999999999', status: 404 },
    { name: 'unknown path', method: 'GET', path: '/api/nothing', status: 404 },
    { name: 'method not allowed', method: 'PUT', path: '/api/vacancies', status: 405 },
    {
      name: 'limit too big',
      method: 'GET',
      path: '/api/persons?limit=1001',
      status: 400,
      fields: { limit: 'must be a whole number from 1 to 1000' },
    },
    {
      name: 'unknown status',
      method: 'GET',
      path: '/api/vacancies?status=gone',
      status: 400,
      fields: { status: 'must be one of draft, open, closed, filled' },
    },
    {
      name: 'foreign cursor',
      method: 'GET',
      path: '/api/vacancies?after=eyJrIjoicGVyc29uIn0',
      status: 400,
      fields: { after: 'is not a cursor returned by this list' },
    },
    { name: 'not JSON', method: 'POST', path: '/api/vacancies', body: 'x', headers: { 'Content-Type': 'text/plain' }, status: 415 },
    { name: 'malformed JSON', method: 'POST', path: '/api/vacancies', body: '{"title":', status: 400 },
    {
      name: 'unknown member',
      method: 'POST',
      path: '/api/vacancies',
      body: { salary: 1 },
      status: 400,
      fields: { salary: 'is not a field of this request' },
    },
    { name: 'wrong type', method: 'POST', path: '/api/vacancies', body: { title: 5 }, status: 400, fields: { title: 'must be a string' } },
    { name: 'invalid vacancy', method: 'POST', path: '/api/vacancies', body: { title: ' ' }, status: 422 },
    {
      name: 'update without version',
      method: 'PATCH',
      path: '/api/vacancies/1',
      body: { title: 'x' },
      status: 428,
      fields: { version: 'is required' },
    },
    {
      name: 'null that cannot clear',
      method: 'PATCH',
      path: '/api/vacancies/1',
      body: { version: 1, title: null },
      status: 400,
      fields: { title: 'must not be null' },
    },
    { name: 'wrong password', method: 'POST', path: '/api/login', token: '', body: { username: 'editor', password: 'no' }, status: 401 },
    {
      name: 'every unknown member',
      method: 'POST',
      path: '/api/vacancies',
      body: { zz: 1, title: 'x', aa: 2 },
      status: 400,
      fields: { aa: 'is not a field of this request', zz: 'is not a field of this request' },
    },
    {
      name: "the first wrong type in the schema's order",
      method: 'POST',
      path: '/api/vacancies',
      body: { salaryMinCents: '4', title: 5 },
      status: 400,
      fields: { title: 'must be a string' },
    },
    {
      name: 'not a whole number',
      method: 'POST',
      path: '/api/vacancies',
      body: { salaryMinCents: 1.5 },
      status: 400,
      fields: { salaryMinCents: 'must be a whole number from -9223372036854775808 to 9223372036854775807' },
    },
    {
      name: 'a version beyond int32',
      method: 'PATCH',
      path: '/api/vacancies/1',
      body: { version: 2 ** 31 },
      status: 400,
      fields: { version: 'must be a whole number from -2147483648 to 2147483647' },
    },
    {
      name: 'not a date',
      method: 'POST',
      path: '/api/persons',
      body: { hiredOn: '2026-02-30' },
      status: 400,
      fields: { hiredOn: 'must be a date written YYYY-MM-DD' },
    },
    { name: 'no body', method: 'POST', path: '/api/vacancies', status: 415 },
    { name: 'empty body', method: 'POST', path: '/api/vacancies', body: '', headers: { 'Content-Type': 'application/json' }, status: 400 },
    { name: 'a trailing slash', method: 'GET', path: '/api/persons/', status: 404 },
    { name: 'path not percent-encoded', method: 'GET', path: '/api/vacancies/%zz', status: 400 },
    {
      name: 'a long id',
      method: 'GET',
      path: `/api/vacancies/${'9'.repeat(1000)}`,
      status: 400,
      fields: { id: 'must be a positive whole number' },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await call(c.method, c.path, {
        token: c.viewer ? viewer : (c.token ?? editor),
        body: c.body,
        headers: c.headers,
      });
      assert.equal(res.status, c.status);
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
      assert.equal(res.body.status, c.status);
      assert.equal(res.body.instance, c.path.split('?')[0]);
      if (c.fields) assert.deepEqual(res.body.fields, c.fields);
    });
  }

  test('a DELETE ignores a body, as the Go app does', async () => {
    const res = await call('DELETE', '/api/vacancies/999999999', { body: '{', headers: { 'Content-Type': 'application/json' } });
    assert.equal(res.status, 404);
  });

  test('a body over 1 MiB is refused before it is read', async () => {
    const res = await call('POST', '/api/vacancies', { body: `{"title":"${'x'.repeat(1 << 20)}"}` });
    assert.equal(res.status, 413);
  });
});

describe('person writes', () => {
  const person = {
    employeeNo: 990001,
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace.hopper.990001@institute.example',
    phone: '+1 202 555 0100',
    department: 'Computer Science',
    hiredOn: '2026-01-01',
  };

  test('create, duplicate, update, delete', async () => {
    await db.query('DELETE FROM person WHERE employee_no = $1', [person.employeeNo]);
    const created = await call('POST', '/api/persons', { body: person });
    assert.equal(created.status, 201);
    assert.equal(created.body.status, 'active');
    const id = created.body.id;
    try {
      const duplicate = await call('POST', '/api/persons', { body: { ...person, employeeNo: person.employeeNo + 1 } });
      assert.equal(duplicate.status, 409);
      assert.deepEqual(duplicate.body.fields, { email: 'is already used by another person' });
      const bad = await call('POST', '/api/persons', { body: { ...person, email: 'not an address', phone: 'call me' } });
      assert.equal(bad.status, 422);
      assert.deepEqual(Object.keys(bad.body.fields), ['email', 'phone']);
      const updated = await call('PATCH', `/api/persons/${id}`, { body: { version: 1, status: 'on_leave' } });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.status, 'on_leave');
      assert.equal(updated.headers.get('etag'), '"2"');
      const detail = await call('GET', `/api/persons/${id}`);
      assert.deepEqual(detail.body.appointments, []);
    } finally {
      assert.equal((await call('DELETE', `/api/persons/${id}`)).status, 204);
    }
    assert.equal((await call('GET', `/api/persons/${id}`)).status, 404);
  });
});
