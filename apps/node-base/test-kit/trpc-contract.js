import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DATABASE_URL, devToken, startSession } from './app.js';
import { databaseClient } from './database.js';

// The contract every tRPC app keeps, the trpc kind's (docs/contract.md):
// its procedures, their answers as REST's, its refusals in tRPC's codes,
// and its answers when the database is slow or gone — whichever adapter
// mounts the router (the trpc app's standalone one, the next app's fetch
// adapter in a route handler).

/**
 * trpcCall sends one tRPC call to the app at url, as tRPC's httpLink sends
 * it: a query as GET /trpc/<procedure>?input=<JSON>, a mutation as POST
 * with the input as its JSON body; input is a value, or a string sent as
 * it is. It resolves with { status, headers, body }, body the answer's
 * JSON.
 */
export async function trpcCall(url, procedure, input, { mutation = false, token, headers = {} } = {}) {
  const auth = token ? { Authorization: `Bearer ${token}` } : {};
  const raw = typeof input === 'string' ? input : JSON.stringify(input);
  let res;
  if (mutation) {
    res = await fetch(`${url}/trpc/${procedure}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...auth, ...headers },
      body: raw,
    });
  } else {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(raw)}`;
    res = await fetch(`${url}/trpc/${procedure}${query}`, { headers: { ...auth, ...headers } });
  }
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** trpcLogin returns a token for the user from auth.login (the seed's passwords are the names). */
export async function trpcLogin(url, username = 'editor', password = username) {
  const { status, body } = await trpcCall(url, 'auth.login', { username, password }, { mutation: true });
  if (status !== 200) throw new Error(`login as ${username}: ${status} ${JSON.stringify(body)}`);
  return body.result.data.token;
}

/** refused asserts that an answer is tRPC's error code at status, in JSON, with fields when given. */
export function refused(res, status, code, fields) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type'), /^application\/json/);
  const { error } = res.body;
  assert.equal(error.data.code, code, JSON.stringify(res.body));
  assert.equal(error.data.httpStatus, status);
  assert.equal(typeof error.code, 'number', 'the JSON-RPC code');
  assert.equal(error.data.stack, undefined, 'no stack in an answer');
  if (fields) assert.deepEqual(error.data.fields, fields);
}

/** answerOf reads a fetch answer as trpcCall resolves it. */
async function answerOf(res) {
  return { status: res.status, headers: res.headers, body: await res.json() };
}

// The inputs refused as BAD_REQUEST, each naming its field: [name,
// procedure, input, fields, mutation].
const BAD_INPUTS = [
  ['an id of 0', 'person.byId', { id: 0 }, { id: 'must be a positive whole number' }],
  ['an id as a string', 'person.byId', { id: '1' }, { id: 'must be a positive whole number' }],
  ['no id', 'person.byId', {}, { id: 'is required' }],
  ['no input', 'vacancy.byId', undefined, { input: "must be a JSON object of the procedure's fields" }],
  ['an input that is no object', 'vacancy.byId', [1], { input: "must be a JSON object of the procedure's fields" }],
  ['a member the input does not take', 'person.byId', { id: 1, extra: true }, { extra: 'is not a field of this request' }],
  ['a page of 0', 'person.list', { limit: 0 }, { limit: 'must be a whole number from 1 to 1000' }],
  ['a page of 1001', 'vacancy.list', { limit: 1001 }, { limit: 'must be a whole number from 1 to 1000' }],
  ['a cursor this list did not write', 'person.list', { after: 'nonsense' }, { after: 'is not a cursor returned by this list' }],
  ['an unknown status', 'vacancy.list', { status: 'gone' }, { status: 'must be one of draft, open, closed, filled' }],
  ['a create with a bad date', 'vacancy.create', { opensOn: '2026-02-30' }, { opensOn: 'must be a date written YYYY-MM-DD' }, true],
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
];

/**
 * describeTRPCContract describes the contract for the tRPC app that
 * startApp starts (test-kit/app.js's appStarter of it): one app, started
 * once, for the reads, writes and refusals, then one app for each outage.
 * name names the suites and the rows the app writes.
 */
export function describeTRPCContract(name, { startApp }) {
  describe(`${name} keeps the contract`, () => {
    let app;
    let editor;
    let viewer;
    let db;
    startSession(startApp, {
      login: (started, username) => trpcLogin(started.url, username),
      onStart: (session) => ({ app, editor, viewer, db } = session),
    });
    const call = (procedure, input, options) => trpcCall(app.url, procedure, input, options);

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
        const res = await call('person.byId', { id: 1 }, { token: viewer });
        assert.equal(res.status, 200, JSON.stringify(res.body));
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
        const res = await call('vacancy.list', { status: 'open', limit: 1000 }, { token: viewer });
        assert.equal(res.status, 200);
        const { items, nextCursor } = res.body.result.data;
        const { rows } = await db.query("SELECT id FROM vacancy WHERE status = 'open' ORDER BY id");
        assert.deepEqual(
          items.map((v) => v.id),
          rows.map((r) => Number(r.id)),
        );
        assert.equal(nextCursor, null);
      });

      test('person.list pages in name order and its cursor continues where the page ended', async () => {
        const first = (await call('person.list', { limit: 3 }, { token: viewer })).body.result.data;
        assert.equal(first.items.length, 3);
        const next = (await call('person.list', { limit: 3, after: first.nextCursor }, { token: viewer })).body.result.data;
        const all = (await call('person.list', { limit: 6 }, { token: viewer })).body.result.data;
        assert.deepEqual(
          [...first.items, ...next.items].map((p) => p.id),
          all.items.map((p) => p.id),
        );
        const everyone = (await call('person.list', { limit: 1000 }, { token: viewer })).body.result.data;
        const { rows } = await db.query('SELECT count(*)::int AS n FROM person');
        assert.equal(everyone.items.length, rows[0].n);
      });

      test('person.list and vacancy.list without input answer the first page of 50', async () => {
        for (const procedure of ['person.list', 'vacancy.list']) {
          const res = await call(procedure, undefined, { token: viewer });
          assert.equal(res.status, 200, procedure);
          assert.equal(res.body.result.data.items.length, 50, procedure);
        }
      });
    });

    describe('write cycle', () => {
      test('create, update with its version, stale update, delete, read back', async () => {
        const created = await call(
          'vacancy.create',
          {
            title: `${name} test vacancy`,
            department: 'Testing',
            location: 'Lab',
            employmentType: 'full_time',
            salaryMinCents: 100,
            salaryMaxCents: 200,
            status: 'draft',
            opensOn: '2026-01-01',
            description: `written by the ${name} tests`,
          },
          { mutation: true, token: editor },
        );
        assert.equal(created.status, 200, JSON.stringify(created.body));
        const v = created.body.result.data;
        assert.equal(v.version, 1);
        assert.equal(v.closesOn, null);
        try {
          const updated = await call(
            'vacancy.update',
            { id: v.id, version: 1, title: `${name} test, edited` },
            { mutation: true, token: editor },
          );
          assert.equal(updated.status, 200, JSON.stringify(updated.body));
          assert.equal(updated.body.result.data.version, 2);
          const stale = await call('vacancy.update', { id: v.id, version: 1, title: 'lost' }, { mutation: true, token: editor });
          refused(stale, 409, 'CONFLICT', { version: 'is stale: the current version is newer than the one sent' });
          const noVersion = await call('vacancy.update', { id: v.id, title: 'lost' }, { mutation: true, token: editor });
          refused(noVersion, 412, 'PRECONDITION_FAILED', { version: 'is required' });
          const read = await call('vacancy.byId', { id: v.id }, { token: viewer });
          assert.equal(read.body.result.data.title, `${name} test, edited`);
          const { rows } = await db.query('SELECT title, version FROM vacancy WHERE id = $1', [v.id]);
          assert.deepEqual(rows[0], { title: `${name} test, edited`, version: 2 });
        } finally {
          const deleted = await call('vacancy.delete', { id: v.id }, { mutation: true, token: editor });
          assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
          assert.deepEqual(deleted.body, { result: { data: null } });
        }
        refused(await call('vacancy.byId', { id: v.id }, { token: viewer }), 404, 'NOT_FOUND');
        refused(await call('vacancy.delete', { id: v.id }, { mutation: true, token: editor }), 404, 'NOT_FOUND');
      });
    });

    describe('refusals', () => {
      test('no token, a bad token: UNAUTHORIZED with WWW-Authenticate; a viewer writing: FORBIDDEN; a wrong password: UNAUTHORIZED', async () => {
        const none = await call('person.byId', { id: 1 });
        refused(none, 401, 'UNAUTHORIZED');
        assert.match(none.body.error.message, /log in first/);
        assert.match(none.headers.get('www-authenticate'), /^Bearer/);
        refused(await call('person.byId', { id: 1 }, { token: 'not-a-token' }), 401, 'UNAUTHORIZED');
        refused(await call('vacancy.delete', { id: 1 }, { mutation: true, token: viewer }), 403, 'FORBIDDEN');
        const wrong = await call('auth.login', { username: 'editor', password: 'wrong' }, { mutation: true });
        refused(wrong, 401, 'UNAUTHORIZED');
        assert.equal(wrong.body.error.message, 'invalid username or password');
        assert.equal(wrong.headers.get('www-authenticate'), null, 'a failed login is no challenge');
      });

      for (const [label, procedure, input, fields, mutation] of BAD_INPUTS) {
        test(`${label}: BAD_REQUEST naming the field`, async () => {
          refused(await call(procedure, input, { token: editor, mutation }), 400, 'BAD_REQUEST', fields);
        });
      }

      test('a query whose escapes are not UTF-8: BAD_REQUEST naming the input, as REST names q', async () => {
        for (const query of ['input=%ff', `input=${encodeURIComponent('{"q":"')}%ff%22%7D`]) {
          const res = await fetch(`${app.url}/trpc/person.list?${query}`, { headers: { Authorization: `Bearer ${viewer}` } });
          refused(await answerOf(res), 400, 'BAD_REQUEST', { input: 'must be valid UTF-8' });
        }
      });

      test('an input or a body that is not JSON: BAD_REQUEST', async () => {
        refused(await call('person.byId', '{"id":', { token: viewer }), 400, 'BAD_REQUEST');
        refused(await call('vacancy.create', '{"title":', { mutation: true, token: editor }), 400, 'BAD_REQUEST');
      });

      test('a body that is not application/json: UNSUPPORTED_MEDIA_TYPE, its error in JSON', async () => {
        const res = await fetch(`${app.url}/trpc/auth.login`, {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain' },
          body: '{"username":"editor","password":"editor"}',
        });
        refused(await answerOf(res), 415, 'UNSUPPORTED_MEDIA_TYPE');
      });

      test('a mutation sent as a GET, a query as a POST: METHOD_NOT_SUPPORTED', async () => {
        refused(await call('vacancy.delete', { id: 1 }, { token: editor }), 405, 'METHOD_NOT_SUPPORTED');
        refused(await call('person.byId', { id: 1 }, { mutation: true, token: editor }), 405, 'METHOD_NOT_SUPPORTED');
      });

      test('an unknown procedure: NOT_FOUND', async () => {
        refused(await call('person.nothing', undefined, { token: viewer }), 404, 'NOT_FOUND');
      });

      test('a batch: BAD_REQUEST, its error in JSON; the runner sends one call a request', async () => {
        const input = encodeURIComponent('{"0":{"id":1},"1":{"id":1}}');
        const res = await fetch(`${app.url}/trpc/person.byId,person.byId?batch=1&input=${input}`, {
          headers: { Authorization: `Bearer ${viewer}` },
        });
        refused(await answerOf(res), 400, 'BAD_REQUEST');
      });

      test('a body over 1 MiB: PAYLOAD_TOO_LARGE before it is read', async () => {
        const res = await call('vacancy.create', JSON.stringify({ description: 'x'.repeat(1 << 20) }), { mutation: true, token: editor });
        refused(res, 413, 'PAYLOAD_TOO_LARGE');
      });
    });

    test('the login answers a token and its expiry, not to be cached', async () => {
      const res = await call('auth.login', { username: 'viewer', password: 'viewer' }, { mutation: true });
      assert.equal(res.status, 200);
      assert.match(res.body.result.data.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.match(res.body.result.data.expiresAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(res.headers.get('cache-control'), 'no-store');
    });
  });

  describe(`${name} in an outage`, () => {
    test('a database that does not answer in time: SERVICE_UNAVAILABLE with Retry-After', async () => {
      // A token signed here, not a login: the login's bcrypt would run under
      // the same 1 s deadline, which a busy machine can spend on it alone.
      const app = await startApp({ REQUEST_TIMEOUT: '1s' });
      // A lock held by another session keeps every read of the table waiting.
      const blocker = databaseClient(DATABASE_URL);
      try {
        await blocker.connect();
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE vacancy IN ACCESS EXCLUSIVE MODE');
        const res = await trpcCall(app.url, 'vacancy.byId', { id: 1 }, { token: devToken() });
        refused(res, 503, 'SERVICE_UNAVAILABLE');
        assert.equal(res.headers.get('retry-after'), '5');
      } finally {
        await blocker.end(); // ends the transaction, and the lock with it
        assert.equal(await app.stop(), 0);
      }
    });

    test('readyz answers 503 when the database is unreachable, healthz still 200', async () => {
      // Port 1 on loopback refuses connections at once.
      const app = await startApp({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none?sslmode=disable' });
      try {
        assert.equal((await fetch(`${app.url}/readyz`)).status, 503);
        assert.equal((await fetch(`${app.url}/healthz`)).status, 200);
        const res = await trpcCall(app.url, 'person.byId', { id: 1 }, { token: devToken() });
        refused(res, 503, 'SERVICE_UNAVAILABLE');
        assert.equal(res.headers.get('retry-after'), '5');
      } finally {
        assert.equal(await app.stop(), 0);
      }
    });
  });
}
