import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DATABASE_URL, devToken, restLogin as login, startSession } from './app.js';
import { databaseClient } from './database.js';

// The contract every REST app keeps, the Go rest app's (docs/contract.md,
// apps/rest/README.md): its reads, writes, refusals and problems, and its
// answers when the database is slow or gone.

/**
 * mediaType is the media type of an answer's Content-Type, its parameters
 * aside, as the contract names it and the runner reads it: Nest's
 * platforms send JSON with the charset that Express and Fastify add.
 */
const mediaType = (headers) => headers.get('content-type')?.split(';')[0].trim();

/**
 * describeRESTContract describes the contract for the REST app that
 * startApp starts (test-kit/app.js's appStarter of it): one app, started
 * once, for the reads, writes and refusals, then one app for each outage.
 * name names the suites. strictPaths (true unless the app says otherwise)
 * wants the Go app's 404 for a trailing slash and 400 for a path that is
 * not percent-encoded.
 */
export function describeRESTContract(name, { startApp, strictPaths = true }) {
  describe(`${name} keeps the contract`, () => {
    let app;
    let editor;
    let viewer;
    let db;
    startSession(startApp, {
      login: (started, username) => login(started.url, username),
      onStart: (session) => ({ app, editor, viewer, db } = session),
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
        assert.equal(mediaType(headers), 'application/json');
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
        {
          name: 'id not a number',
          method: 'GET',
          path: '/api/vacancies/abc',
          status: 400,
          fields: { id: 'must be a positive whole number' },
        },
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
        {
          name: 'wrong type',
          method: 'POST',
          path: '/api/vacancies',
          body: { title: 5 },
          status: 400,
          fields: { title: 'must be a string' },
        },
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
        {
          name: 'wrong password',
          method: 'POST',
          path: '/api/login',
          token: '',
          body: { username: 'editor', password: 'no' },
          status: 401,
        },
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
        {
          name: 'empty body',
          method: 'POST',
          path: '/api/vacancies',
          body: '',
          headers: { 'Content-Type': 'application/json' },
          status: 400,
        },
        {
          name: 'a long id',
          method: 'GET',
          path: `/api/vacancies/${'9'.repeat(1000)}`,
          status: 400,
          fields: { id: 'must be a positive whole number' },
        },
      ];
      // The Go app's answers to a path it does not take as written.
      const pathCases = [
        { name: 'a trailing slash', method: 'GET', path: '/api/persons/', status: 404 },
        { name: 'path not percent-encoded', method: 'GET', path: '/api/vacancies/%zz', status: 400 },
      ];
      for (const c of strictPaths ? [...cases, ...pathCases] : cases) {
        test(c.name, async () => {
          const res = await call(c.method, c.path, {
            token: c.viewer ? viewer : (c.token ?? editor),
            body: c.body,
            headers: c.headers,
          });
          assert.equal(res.status, c.status);
          assert.equal(mediaType(res.headers), 'application/problem+json');
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
  });

  describe(`${name} in an outage`, () => {
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
        const res = await fetch(`${app.url}/api/vacancies/1`, { headers: { Authorization: `Bearer ${token}` } });
        assert.equal(res.status, 503);
        assert.equal(res.headers.get('retry-after'), '5');
        assert.equal((await res.json()).detail, 'the database did not answer in time');
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
        const res = await fetch(`${app.url}/api/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"username":"editor","password":"editor"}',
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
        // The pool under pgx's names, as every app reports it, and Node's event loop.
        assert.match(text, /^pgxpool_acquire_count_total \d/m);
        assert.match(text, /^pgxpool_acquire_duration_seconds_total \d/m);
        assert.match(text, /^pgxpool_max_conns 20$/m);
        assert.match(text, /^nodejs_eventloop_lag_p99_seconds \d/m);
      } finally {
        await app.stop();
      }
    });
  });
}
