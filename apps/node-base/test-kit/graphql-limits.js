import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { HOSTILE_SHAPES, selfDoubling } from '../src/graphql/hostile.js';
import { MAX_QUERY_BYTES, MAX_QUERY_TOKENS } from '../src/graphql/limits.js';
import { devToken } from './app.js';
import { AT_THE_LIMITS, DOCUMENT_LIMIT_CASES } from './graphql-limit-cases.js';

// The Go graphql app's limits, through real HTTP against the app as it
// runs: each refused with the Go app's code, before anything runs. How long
// a refusal takes is bench/hostile.js's business; what is asserted here
// cannot move on a busy machine.

/**
 * serveListener serves listener, a node:http request listener (the app as
 * Yoga and Apollo make it), on a free port of 127.0.0.1, for
 * listenWithoutDeadline: it resolves with { url, close }, close ending the
 * connections and the server, then awaiting onClose.
 */
export async function serveListener(listener, onClose = async () => {}) {
  const server = http.createServer(listener);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await onClose();
    },
  };
}

/**
 * describeGraphQLLimits describes the limits for the GraphQL app that
 * startApp starts (test-kit/app.js's appStarter of it), started once.
 * listenWithoutDeadline starts the app in this process with a request
 * timeout of 0 ms, on a free port of 127.0.0.1, and resolves with
 * { url, close }: each engine's app is made and served its own way
 * (serveListener serves a request listener).
 */
export function describeGraphQLLimits(name, { startApp, listenWithoutDeadline }) {
  describe(`${name} keeps the limits`, () => {
    let app;
    const token = devToken('viewer');

    before(async () => {
      app = await startApp();
    });

    after(async () => {
      assert.equal(await app?.stop(), 0);
    });

    /** post sends query as the client accepting accept, and resolves with { status, headers, body }. */
    async function post(query, { accept = 'application/json', variables, url = app.url } = {}) {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: accept, Authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
      return { status: res.status, headers: res.headers, body: await res.json() };
    }

    const nested = (levels) => `{ person(id: 1) { ${'appointments { person { '.repeat(levels)}id${' } }'.repeat(levels)} } }`;
    const ALL_PERSON_FIELDS = `nodes { id employeeNo firstName lastName email phone department status hiredOn version createdAt updatedAt }
      pageInfo { endCursor hasNextPage }`;

    describe('the limits', () => {
      // The Go app's TestQueryLimits, case for case.
      const cases = [
        ['depth', nested(5), 'DEPTH_LIMIT_EXCEEDED'],
        [
          'depth through fragments',
          `query { person(id: 1) { ...A } }
          fragment A on Person { appointments { person { ...B } } }
          fragment B on Person { appointments { person { ...C } } }
          fragment C on Person { appointments { person { appointments { person { appointments { id } } } } } }`,
          'DEPTH_LIMIT_EXCEEDED',
        ],
        [
          'complexity of a big page',
          '{ persons(first: 1000) { nodes { id appointments { id stipends { id } } } } }',
          'COMPLEXITY_LIMIT_EXCEEDED',
        ],
        [
          'complexity of aliases',
          `{ a: persons(first: 1000) { ${ALL_PERSON_FIELDS} } b: persons(first: 1000) { ${ALL_PERSON_FIELDS} } }`,
          'COMPLEXITY_LIMIT_EXCEEDED',
        ],
        ['query size', `{ vacancies { nodes { id } } }${' '.repeat(MAX_QUERY_BYTES)}`, 'QUERY_TOO_LARGE'],
        ['token count', `{ ${'a '.repeat(MAX_QUERY_TOKENS)}}`, 'GRAPHQL_PARSE_FAILED'],
        ['doubling spreads', HOSTILE_SHAPES[0].write(1000), 'SELECTION_LIMIT_EXCEEDED'],
        ['doubling spreads through fields', HOSTILE_SHAPES[1].write(1000), 'SELECTION_LIMIT_EXCEEDED'],
        [
          'complexity through fragments',
          `{ ...F1 } fragment F1 on Query { ...F0 ...F0 }
          fragment F0 on Query { a: persons(first: 1000) { ${ALL_PERSON_FIELDS} } }`,
          'COMPLEXITY_LIMIT_EXCEEDED',
        ],
        ...DOCUMENT_LIMIT_CASES,
      ];
      for (const [name, query, code] of cases) {
        test(`${name} is ${code}, a request error`, async () => {
          for (const [accept, status] of [
            ['application/json', 200],
            ['application/graphql-response+json', 400],
          ]) {
            const { status: got, body } = await post(query, { accept });
            assert.deepEqual(
              body.errors.map((e) => e.extensions.code),
              [code],
              JSON.stringify(body.errors).slice(0, 300),
            );
            assert.equal(got, status, accept);
            assert.equal(body.data ?? null, null);
          }
        });
      }

      test("the messages are the Go app's", async () => {
        for (const [query, message] of [
          [`{ ${'a '.repeat(MAX_QUERY_TOKENS)}}`, `exceeded token limit of ${MAX_QUERY_TOKENS}`],
          [nested(5), 'the query nests too deeply: 12 levels, the limit is 10'],
          [
            '{ persons(first: 1000) { nodes { id appointments { id stipends { id } } } } }',
            'the query is too complex: it costs 73001, the limit is 25000',
          ],
          [selfDoubling(22), 'the document selects too many fields: more than 2000 after expanding its fragments'],
        ]) {
          const { body } = await post(query);
          assert.deepEqual(
            body.errors.map((e) => e.message),
            [message],
          );
        }
      });

      test("the bench's queries, introspection and documents at the limits pass", async () => {
        const testdata = new URL('../../graphql/testdata/', import.meta.url);
        for (const name of ['showcase', 'open_vacancies', 'all_persons', 'slim_persons', 'introspection']) {
          const { status, body } = await post(readFileSync(new URL(`${name}.graphql`, testdata), 'utf8'), { variables: { id: '1' } });
          assert.equal(body.errors, undefined, `${name}: ${JSON.stringify(body.errors)}`);
          assert.equal(status, 200);
        }
        for (const query of [
          nested(4), // 10 levels: the limit
          '{ persons(first: 50) { nodes { id appointments { id stipends { id payer { code } } } } } }',
          ...AT_THE_LIMITS,
        ]) {
          const { body } = await post(query);
          assert.equal(body.errors, undefined, `${query.slice(0, 60)}: ${JSON.stringify(body.errors)}`);
        }
      });
    });

    describe('hostile documents', () => {
      // The document: under 1 KiB, a fragment spreading the one before
      // it twice, 22 levels deep: counted once per fragment, it is the Go
      // app's SELECTION_LIMIT_EXCEEDED. The timeout only keeps a walk that
      // expanded it from holding the suite.
      test('a fragment spreading itself twice 22 levels deep is SELECTION_LIMIT_EXCEEDED', { timeout: 20_000 }, async () => {
        const query = selfDoubling(22);
        assert.ok(query.length < 1024);
        const { status, body } = await post(query);
        assert.equal(status, 200);
        assert.deepEqual(
          body.errors.map((e) => e.extensions.code),
          ['SELECTION_LIMIT_EXCEEDED'],
        );
      });

      // The Go app's first code for each shape at each size (its
      // TestHostileDocumentsRefused documents, sent to it): the same limit, or
      // its parser or validator, refuses each here.
      const GO_CODES = {
        'doubling-spreads': ['SELECTION_LIMIT_EXCEEDED', 'SELECTION_LIMIT_EXCEEDED', 'SELECTION_LIMIT_EXCEEDED'],
        'nested-doubling': ['SELECTION_LIMIT_EXCEEDED', 'SELECTION_LIMIT_EXCEEDED', 'SELECTION_LIMIT_EXCEEDED'],
        aliases: ['GRAPHQL_VALIDATION_FAILED', 'ALIAS_LIMIT_EXCEEDED', 'ALIAS_LIMIT_EXCEEDED'],
        'repeated-field': ['REPEAT_LIMIT_EXCEEDED', 'REPEAT_LIMIT_EXCEEDED', 'REPEAT_LIMIT_EXCEEDED'],
        'conflicting-aliases': ['REPEAT_LIMIT_EXCEEDED', 'REPEAT_LIMIT_EXCEEDED', 'ALIAS_LIMIT_EXCEEDED'],
        'unknown-fields': ['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_VALIDATION_FAILED'],
        directives: ['DIRECTIVE_LIMIT_EXCEEDED', 'DIRECTIVE_LIMIT_EXCEEDED', 'GRAPHQL_PARSE_FAILED'],
        'wide-fragments': ['GRAPHQL_VALIDATION_FAILED', 'FRAGMENT_LIMIT_EXCEEDED', 'FRAGMENT_LIMIT_EXCEEDED'],
        'fragment-chain': ['GRAPHQL_VALIDATION_FAILED', 'FRAGMENT_LIMIT_EXCEEDED', 'FRAGMENT_LIMIT_EXCEEDED'],
        'deep-nesting': ['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED'],
        'at-the-limits': ['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_VALIDATION_FAILED'],
      };
      for (const shape of HOSTILE_SHAPES) {
        test(`${shape.name} at 1, 4 and 16 KiB gets the Go app's code`, async () => {
          for (const [i, size] of [1 << 10, 4 << 10, MAX_QUERY_BYTES].entries()) {
            const { status, body } = await post(shape.write(size));
            assert.equal(status, 200, `${size} bytes`);
            assert.equal(body.data ?? null, null, `${size} bytes`);
            assert.deepEqual(
              [...new Set(body.errors.map((e) => e.extensions.code))],
              [GO_CODES[shape.name][i]],
              `${size} bytes: ${JSON.stringify(body.errors).slice(0, 300)}`,
            );
          }
        });
      }
    });

    // With REQUEST_TIMEOUT spent before the document is looked at, the
    // analysis stops at its first step and the answer is the Go app's outage:
    // 503 UNAVAILABLE with Retry-After. The app runs in this process so that
    // its timeout can be none at all; nothing reaches the database.
    test('a request past its deadline while its query is checked is 503 UNAVAILABLE', async () => {
      const deadlined = await listenWithoutDeadline();
      try {
        for (const accept of ['application/json', 'application/graphql-response+json']) {
          const { status, headers, body } = await post(selfDoubling(22), { url: deadlined.url, accept });
          assert.equal(status, 503, accept);
          assert.equal(headers.get('retry-after'), '5');
          assert.deepEqual(
            body.errors.map((e) => [e.extensions.code, e.message]),
            [['UNAVAILABLE', "the request's deadline passed while its query was being checked; try again"]],
          );
        }
      } finally {
        await deadlined.close();
      }
    });
  });
}
