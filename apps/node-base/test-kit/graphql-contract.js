import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DATABASE_URL, devToken, gql, graphqlLogin as login, startSession } from './app.js';
import { databaseClient } from './database.js';

// The contract every GraphQL app keeps, the Go graphql app's
// (docs/contract.md, apps/graphql/README.md): its reads, writes, refusals
// and codes, and its answers when the database is slow or gone.

// The documents the runner sends (docs/contract.md).
const PERSON_DETAIL = `query PersonDetail { person(id: 1) { id employeeNo firstName lastName email phone department status hiredOn version createdAt updatedAt
  appointments { id personId positionTitle department fte startsOn endsOn
    stipends { id appointmentId payer { id code name kind } amountCents currency startsOn endsOn }
    fundings { appointmentId payer { id code name kind } percent } } } }`;
const OPEN_VACANCIES = `query OpenVacancies { vacancies(status: OPEN, first: 100) { nodes { id title status filledBy createdAt } pageInfo { endCursor hasNextPage } } }`;
const ALL_PERSONS = `query AllPersons { persons(first: 1000) { nodes { id email } pageInfo { endCursor hasNextPage } } }`;

/**
 * describeGraphQLContract describes the contract for the GraphQL app that
 * startApp starts (test-kit/app.js's appStarter of it): one app, started
 * once, for the reads, writes and refusals, then one app for each outage.
 * name names the suites and the rows the app writes.
 */
export function describeGraphQLContract(name, { startApp }) {
  describe(`${name} keeps the contract`, () => {
    let app;
    let editor;
    let viewer;
    let db;
    startSession(startApp, {
      login: (started, username) => login(started.url, username),
      onStart: (session) => ({ app, editor, viewer, db } = session),
    });

    const data = async (query, options = {}) => {
      const { status, body } = await gql(app.url, query, { token: editor, ...options });
      assert.equal(status, 200);
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      return body.data;
    };

    const codes = async (query, options = {}) => {
      const { body } = await gql(app.url, query, { token: editor, ...options });
      return body.errors?.map((e) => e.extensions?.code);
    };

    describe('health', () => {
      test('healthz and readyz', async () => {
        assert.equal(await (await fetch(`${app.url}/healthz`)).text(), 'ok');
        assert.deepEqual(await (await fetch(`${app.url}/readyz`)).json(), { status: 'ready' });
      });
    });

    describe('reads', () => {
      test('PersonDetail nests 12 appointments, 36 stipends and 24 fundings', async () => {
        const { person } = await data(PERSON_DETAIL);
        assert.equal(person.id, '1');
        assert.equal(person.status, 'ACTIVE');
        assert.equal(person.appointments.length, 12);
        assert.equal(person.appointments.flatMap((a) => a.stipends).length, 36);
        assert.equal(person.appointments.flatMap((a) => a.fundings).length, 24);
        const { rows } = await db.query('SELECT created_at::text AS c FROM person WHERE id = 1');
        assert.equal(Date.parse(person.createdAt), Date.parse(rows[0].c));
        assert.match(person.appointments[0].stipends[0].payer.kind, /^(GRANT|DEPARTMENT|EXTERNAL)$/);
      });

      test('OpenVacancies are the open ones in id order', async () => {
        const { vacancies } = await data(OPEN_VACANCIES);
        const { rows } = await db.query("SELECT id FROM vacancy WHERE status = 'open' ORDER BY id LIMIT 100");
        assert.deepEqual(
          vacancies.nodes.map((v) => Number(v.id)),
          rows.map((r) => Number(r.id)),
        );
        assert.ok(vacancies.nodes.every((v) => v.status === 'OPEN'));
      });

      test('AllPersons is every person in one page', async () => {
        const { persons } = await data(ALL_PERSONS);
        const { rows } = await db.query('SELECT count(*)::int AS n FROM person');
        assert.equal(persons.nodes.length, rows[0].n);
        assert.deepEqual(persons.pageInfo, { endCursor: null, hasNextPage: false });
      });

      test('a page cursor continues where the page ended', async () => {
        const first = await data('{ persons(first: 2) { nodes { id } pageInfo { endCursor hasNextPage } } }');
        const next = await data('query($a: String) { persons(first: 2, after: $a) { nodes { id } } }', {
          variables: { a: first.persons.pageInfo.endCursor },
        });
        const { rows } = await db.query('SELECT id FROM person ORDER BY last_name, first_name, id LIMIT 4');
        assert.deepEqual(
          [...first.persons.nodes, ...next.persons.nodes].map((p) => Number(p.id)),
          rows.map((r) => Number(r.id)),
        );
      });
    });

    describe('write cycle', () => {
      test('create, update, stale update, delete', async () => {
        const input = {
          title: `${name} test vacancy`,
          department: 'Biology',
          location: 'Bologna',
          employmentType: 'FULL_TIME',
          salaryMinCents: 4000000,
          salaryMaxCents: 5000000,
          status: 'DRAFT',
          opensOn: '2026-01-01',
          description: 'x',
        };
        const { createVacancy } = await data('mutation($input: VacancyInput!) { createVacancy(input: $input) { id version closesOn } }', {
          variables: { input },
        });
        assert.equal(createVacancy.version, 1);
        const update =
          'mutation($id: ID!, $version: Int!, $input: VacancyPatch!) { updateVacancy(id: $id, version: $version, input: $input) { version title closesOn } }';
        const { updateVacancy } = await data(update, {
          variables: { id: createVacancy.id, version: 1, input: { title: 'Renamed', closesOn: '2026-02-01' } },
        });
        assert.deepEqual(updateVacancy, { version: 2, title: 'Renamed', closesOn: '2026-02-01' });
        assert.deepEqual(await codes(update, { variables: { id: createVacancy.id, version: 1, input: { title: 'Lost' } } }), ['CONFLICT']);
        const cleared = await data(update, { variables: { id: createVacancy.id, version: 2, input: { closesOn: null, title: null } } });
        assert.deepEqual(cleared.updateVacancy, { version: 3, title: 'Renamed', closesOn: null });
        assert.deepEqual(await data('mutation($id: ID!) { deleteVacancy(id: $id) }', { variables: { id: createVacancy.id } }), {
          deleteVacancy: true,
        });
        const gone = await gql(app.url, 'query($id: ID!) { vacancy(id: $id) { id } }', {
          token: editor,
          variables: { id: createVacancy.id },
        });
        assert.equal(gone.body.data.vacancy, null);
        assert.equal(gone.body.errors[0].extensions.code, 'NOT_FOUND');
      });
    });

    describe('refusals', () => {
      // The Go graphql app answers each of these with the same extensions.code.
      // 11 levels: one more than the limit.
      const tooDeep = `{ vacancies { nodes { filledByPerson { appointments { person { appointments { person { appointments { person {
        appointments { id } } } } } } } } } } }`;
      const cases = [
        { name: 'no token', query: '{ person(id: 1) { id } }', token: '', code: 'UNAUTHENTICATED' },
        { name: 'bad token', query: '{ person(id: 1) { id } }', token: 'a.b.c', code: 'UNAUTHENTICATED' },
        { name: 'viewer writes', query: 'mutation { deleteVacancy(id: 1) }', token: 'viewer', code: 'FORBIDDEN' },
        { name: 'unknown person', query: '{ person(id: 999999999) { id } }', code: 'NOT_FOUND' },
        { name: 'id not a number', query: '{ person(id: "x") { id } }', code: 'BAD_USER_INPUT' },
        { name: 'page too big', query: '{ persons(first: 1001) { nodes { id } } }', code: 'BAD_USER_INPUT' },
        { name: 'foreign cursor', query: '{ vacancies(after: "eyJrIjoicGVyc29uIn0") { nodes { id } } }', code: 'BAD_USER_INPUT' },
        {
          name: 'not a date',
          query: 'mutation { updateVacancy(id: 1, version: 1, input: {opensOn: "2026-02-30"}) { id } }',
          code: 'BAD_USER_INPUT',
        },
        {
          name: 'wrong password',
          query: 'mutation { login(username: "editor", password: "no") { token } }',
          token: '',
          code: 'UNAUTHENTICATED',
        },
        { name: 'too deep', query: tooDeep, code: 'DEPTH_LIMIT_EXCEEDED' },
        {
          name: 'too complex',
          query: '{ persons(first: 1000) { nodes { appointments { stipends { id payer { id code name kind } } } } } }',
          code: 'COMPLEXITY_LIMIT_EXCEEDED',
        },
        { name: 'too large', query: `{ __typename }${' '.repeat(16 << 10)}`, code: 'QUERY_TOO_LARGE' },
        { name: 'syntax error', query: '{ person(id: 1) { id ', code: 'GRAPHQL_PARSE_FAILED' },
        { name: 'unknown field', query: '{ nope }', code: 'GRAPHQL_VALIDATION_FAILED' },
      ];
      for (const c of cases) {
        test(c.name, async () => {
          const token = c.token === 'viewer' ? viewer : (c.token ?? editor);
          assert.deepEqual(await codes(c.query, { token }), [c.code]);
        });
      }

      test('the invalid fields are named', async () => {
        const { body } = await gql(
          app.url,
          'mutation { updateVacancy(id: 1, version: 1, input: {salaryMinCents: 10, salaryMaxCents: 5}) { id } }',
          {
            token: editor,
          },
        );
        assert.deepEqual(body.errors[0].extensions.fields, { salaryMaxCents: 'must not be less than salaryMinCents' });
      });

      test('bad variables: a leaf value is BAD_USER_INPUT naming its field, a missing one a request error', async () => {
        const lower = await gql(app.url, 'query($s: VacancyStatus) { vacancies(status: $s) { nodes { id } } }', {
          token: editor,
          variables: { s: 'open' },
        });
        assert.equal(lower.status, 200);
        assert.deepEqual(
          lower.body.errors.map((e) => [e.extensions.code, Object.keys(e.extensions.fields)]),
          [['BAD_USER_INPUT', ['status']]],
        );
        const date = await gql(app.url, 'mutation($p: VacancyPatch!) { updateVacancy(id: 1, version: 1, input: $p) { id } }', {
          token: editor,
          variables: { p: { opensOn: '2026-02-30' } },
        });
        assert.deepEqual(Object.keys(date.body.errors[0].extensions.fields), ['opensOn']);
        const missing = (accept) =>
          fetch(`${app.url}/graphql`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Accept: accept, Authorization: `Bearer ${editor}` },
            body: JSON.stringify({ query: 'query($id: ID!) { person(id: $id) { id } }' }),
          });
        for (const [accept, status] of [
          ['application/json', 200],
          ['application/graphql-response+json', 400],
        ]) {
          const res = await missing(accept);
          assert.equal(res.status, status, accept);
          assert.deepEqual(
            (await res.json()).errors.map((e) => e.extensions.code),
            ['GRAPHQL_VALIDATION_FAILED'],
          );
        }
      });

      test('a number not written as an int64 in digits is refused for an Int (a request error) and an Int64 (BAD_USER_INPUT naming it)', async () => {
        // Sent as text: JSON.stringify would write 1e3 and 1000.0 as 1000.
        const post = (query, variables, accept = 'application/json') =>
          fetch(`${app.url}/graphql`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Accept: accept, Authorization: `Bearer ${editor}` },
            body: `{"query":${JSON.stringify(query)},"variables":${variables}}`,
          });
        const answer = async (res) => {
          const body = await res.json();
          return [res.status, body.errors?.map((e) => [e.extensions.code, Object.keys(e.extensions.fields ?? {})])];
        };
        const page = 'query($n: Int) { persons(first: $n) { nodes { id } } }';
        for (const n of ['1e3', '1000.0', '1.5', '9223372036854775808']) {
          assert.deepEqual(await answer(await post(page, `{"n":${n}}`)), [200, [['GRAPHQL_VALIDATION_FAILED', []]]], n);
          assert.deepEqual(
            await answer(await post(page, `{"n":${n}}`, 'application/graphql-response+json')),
            [400, [['GRAPHQL_VALIDATION_FAILED', []]]],
            `${n} (application/graphql-response+json)`,
          );
        }
        const get = await fetch(`${app.url}/graphql?query=${encodeURIComponent(page)}&variables=${encodeURIComponent('{"n":1E3}')}`, {
          headers: { Authorization: `Bearer ${editor}` },
        });
        assert.deepEqual(await answer(get), [200, [['GRAPHQL_VALIDATION_FAILED', []]]], 'over GET');
        const patch = 'mutation($p: VacancyPatch!) { updateVacancy(id: 1, version: 1, input: $p) { id } }';
        for (const cents of ['5e6', '5000000.0', '9223372036854775808']) {
          assert.deepEqual(
            await answer(await post(patch, `{"p":{"salaryMaxCents":${cents}}}`)),
            [200, [['BAD_USER_INPUT', ['salaryMaxCents']]]],
            cents,
          );
        }
        // A string that looks like such a number is not one.
        assert.deepEqual(await answer(await post(page, '{"n":10,"s":"1e3 1.5"}')), [200, undefined]);
      });

      test("an anonymous operation beside another is the spec's Lone Anonymous Operation, one validation error each", async () => {
        const lone = 'This anonymous operation must be the only defined operation.';
        for (const [query, messages] of [
          ['{ a: __typename } { b: __typename }', [lone, lone]],
          ['{ a: __typename } query B { b: __typename }', [lone]],
        ]) {
          for (const [accept, status] of [
            ['application/json', 200],
            ['application/graphql-response+json', 400],
          ]) {
            const res = await fetch(`${app.url}/graphql`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', Accept: accept, Authorization: `Bearer ${editor}` },
              body: JSON.stringify({ query }),
            });
            assert.equal(res.status, status, `${query} (${accept})`);
            const body = await res.json();
            assert.equal(body.data ?? null, null, query);
            assert.deepEqual(
              body.errors.map((e) => [e.extensions.code, e.message]),
              messages.map((m) => ['GRAPHQL_VALIDATION_FAILED', m]),
              `${query} (${accept})`,
            );
          }
        }
      });

      test('a limit refused is a request error: 400 for application/graphql-response+json', async () => {
        const res = await fetch(`${app.url}/graphql`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json', Authorization: `Bearer ${editor}` },
          body: JSON.stringify({ query: tooDeep }),
        });
        assert.equal(res.status, 400);
        assert.deepEqual(
          (await res.json()).errors.map((e) => e.extensions.code),
          ['DEPTH_LIMIT_EXCEEDED'],
        );
      });

      test("HTTP refusals carry the Go app's codes", async () => {
        const put = await fetch(`${app.url}/graphql`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{}' });
        assert.equal(put.status, 405);
        assert.equal(put.headers.get('allow'), 'GET, HEAD, POST, OPTIONS');
        assert.equal((await put.json()).errors[0].extensions.code, 'METHOD_NOT_ALLOWED');
        const text = await fetch(`${app.url}/graphql`, {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain' },
          body: '{"query":"{ __typename }"}',
        });
        assert.equal(text.status, 415);
        assert.equal((await text.json()).errors[0].extensions.code, 'UNSUPPORTED_MEDIA_TYPE');
        const get = await fetch(`${app.url}/graphql?query=${encodeURIComponent('mutation { deleteVacancy(id: 999999999) }')}`, {
          headers: { Authorization: `Bearer ${editor}` },
        });
        assert.equal(get.status, 405);
        assert.equal(get.headers.get('allow'), 'POST');
        assert.equal((await get.json()).errors[0].extensions.code, 'METHOD_NOT_ALLOWED');
      });

      test('no query, or an operation the document does not hold, is GRAPHQL_VALIDATION_FAILED, as gqlgen has it', async () => {
        const several = 'query A { a: __typename } query B { b: __typename }';
        for (const query of [
          '',
          `?query=${encodeURIComponent('{ __typename }')}&operationName=Nope`,
          `?query=${encodeURIComponent(several)}`,
        ]) {
          for (const [accept, status] of [
            ['application/json', 200],
            ['application/graphql-response+json', 400],
          ]) {
            const res = await fetch(`${app.url}/graphql${query}`, { headers: { Accept: accept } });
            assert.equal(res.status, status, `${query} (${accept})`);
            assert.deepEqual(
              (await res.json()).errors.map((e) => e.extensions.code),
              ['GRAPHQL_VALIDATION_FAILED'],
              query,
            );
          }
        }
      });

      test('a body over 1 MiB is refused before it is read', async () => {
        const res = await fetch(`${app.url}/graphql`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ query: `{ __typename }${' '.repeat(1 << 20)}` }),
        });
        assert.equal(res.status, 413);
        assert.equal((await res.json()).errors[0].extensions.code, 'REQUEST_TOO_LARGE');
      });
    });

    describe('person writes', () => {
      test('create, duplicate, update with null left alone, delete', async () => {
        const input = {
          employeeNo: 990101,
          firstName: 'Grace',
          lastName: 'Hopper',
          email: 'grace.hopper.990101@institute.example',
          department: 'Computer Science',
          hiredOn: '2026-01-01',
        };
        await db.query('DELETE FROM person WHERE employee_no = $1', [input.employeeNo]);
        const create = 'mutation($input: PersonInput!) { createPerson(input: $input) { id status phone version } }';
        const { createPerson } = await data(create, { variables: { input } });
        assert.deepEqual({ ...createPerson, id: undefined }, { id: undefined, status: 'ACTIVE', phone: '', version: 1 });
        try {
          assert.deepEqual(await codes(create, { variables: { input: { ...input, employeeNo: input.employeeNo + 1 } } }), ['CONFLICT']);
          const { updatePerson } = await data(
            'mutation($id: ID!) { updatePerson(id: $id, version: 1, input: {status: ON_LEAVE, email: null}) { status email version } }',
            { variables: { id: createPerson.id } },
          );
          assert.deepEqual(updatePerson, { status: 'ON_LEAVE', email: input.email, version: 2 });
        } finally {
          assert.deepEqual(await data('mutation($id: ID!) { deletePerson(id: $id) }', { variables: { id: createPerson.id } }), {
            deletePerson: true,
          });
        }
      });
    });
  });

  describe(`${name} under outages`, () => {
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
  });
}
