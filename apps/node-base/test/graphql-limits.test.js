import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import { buildSchema, getNamedType, parse, validate } from 'graphql';
import { HOSTILE_SHAPES, selfDoubling } from '../src/graphql/hostile.js';
import {
  CHECK_EVERY,
  COMPLEXITY_WEIGHTS,
  MAX_FRAGMENTS,
  MAX_NESTING_DEPTH,
  MAX_QUERY_BYTES,
  MAX_QUERY_TOKENS,
  checkDocument,
  checkNesting,
  checkQuerySize,
  measureOperation,
} from '../src/graphql/limits.js';
import { AT_THE_LIMITS, DOCUMENT_LIMIT_CASES, repeatN } from '../test-kit/graphql-limit-cases.js';

// The Go app's schema, read from its files as the apps read it; the
// directives are declared there.
const SCHEMA_DIR = new URL('../../graphql/graph/', import.meta.url);
const schema = buildSchema(
  readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.graphqls'))
    .sort()
    .map((f) => readFileSync(new URL(f, SCHEMA_DIR), 'utf8'))
    .join('\n'),
);

const documentCode = (query) => checkDocument(parse(query)).refusal?.code ?? null;
// plain is a refusal as the JSON of an answer has it.
const plain = (refusal) => refusal && { ...refusal };

describe('checkDocument', () => {
  // The Go app's TestQueryLimits, the document limits' cases.
  const refused = [['doubling spreads', selfDoubling(22), 'SELECTION_LIMIT_EXCEEDED'], ...DOCUMENT_LIMIT_CASES];
  for (const [name, query, code] of refused) {
    test(`refuses ${name}`, () => assert.equal(documentCode(query), code));
  }

  test('passes documents at the limits', () => {
    for (const query of AT_THE_LIMITS) {
      assert.equal(documentCode(query), null, query.slice(0, 60));
    }
  });

  test("messages are the Go app's", () => {
    assert.deepEqual(plain(checkDocument(parse(`{${' __typename'.repeat(11)} }`)).refusal), {
      code: 'REPEAT_LIMIT_EXCEEDED',
      message: '"__typename" is selected 11 times in one place, the limit is 10',
    });
    assert.deepEqual(plain(checkDocument(parse(selfDoubling(22))).refusal), {
      code: 'SELECTION_LIMIT_EXCEEDED',
      message: 'the document selects too many fields: more than 2000 after expanding its fragments',
    });
    assert.deepEqual(plain(checkQuerySize('{ __typename }' + ' '.repeat(MAX_QUERY_BYTES))), {
      code: 'QUERY_TOO_LARGE',
      message: `the query is too large: ${MAX_QUERY_BYTES + 14} bytes, the limit is ${MAX_QUERY_BYTES}`,
    });
    assert.equal(checkQuerySize('{ __typename }'), null);
  });

  // What cannot move on a busy machine: the steps an analysis takes. A
  // step is one selection visited; the document has fewer selections than
  // bytes, and a fragment is walked once however often it is spread.
  test("takes steps linear in the document's size, whatever its shape", () => {
    for (const shape of HOSTILE_SHAPES) {
      for (const size of [1 << 10, 4 << 10, MAX_QUERY_BYTES]) {
        const query = shape.write(size);
        let document;
        try {
          document = parse(query, { maxTokens: MAX_QUERY_TOKENS });
        } catch {
          continue; // the parser refuses it first
        }
        const { steps } = checkDocument(document);
        assert.ok(steps <= query.length, `${shape.name} at ${size} bytes: ${steps} steps for ${query.length} bytes`);
      }
    }
    // 49 doublings stand for 2^49 selections: each fragment is counted once.
    const { refusal, steps } = checkDocument(parse(selfDoubling(MAX_FRAGMENTS - 1)));
    assert.equal(refusal.code, 'SELECTION_LIMIT_EXCEEDED');
    assert.ok(steps <= 4 * MAX_FRAGMENTS + 10, `${steps} steps`);
  });

  test('a request past its deadline is refused UNAVAILABLE at the first step', () => {
    const document = parse(HOSTILE_SHAPES.find((s) => s.name === 'at-the-limits').write(MAX_QUERY_BYTES));
    assert.equal(checkDocument(document).refusal, null);
    for (const options of [{ deadline: performance.now() - 1 }, { signal: AbortSignal.abort() }]) {
      const { refusal, steps } = checkDocument(document, options);
      assert.equal(refusal.code, 'UNAVAILABLE');
      assert.equal(steps, 1);
    }
    // One that passes while it is counted stops within CHECK_EVERY steps.
    let now = 0;
    const clock = performance.now;
    performance.now = () => now++;
    try {
      const { refusal, steps } = checkDocument(document, { deadline: 1 });
      assert.equal(refusal.code, 'UNAVAILABLE');
      assert.equal(steps, CHECK_EVERY + 1);
    } finally {
      performance.now = clock;
    }
  });
});

describe('checkNesting', () => {
  const nested = (levels) => `{ ${'a { '.repeat(levels - 1)}b${' }'.repeat(levels - 1)} }`;
  test("refuses as the Go app's parser does past 1000 levels of selections, lists and objects", () => {
    assert.equal(checkNesting(parse(nested(MAX_NESTING_DEPTH))), null);
    assert.deepEqual(plain(checkNesting(parse(nested(MAX_NESTING_DEPTH + 1)))), {
      code: 'GRAPHQL_PARSE_FAILED',
      message: `exceeded maximum nesting depth of ${MAX_NESTING_DEPTH}`,
    });
    const lists = (n) => `{ a(x: ${'['.repeat(n)}1${']'.repeat(n)}) }`;
    assert.equal(checkNesting(parse(lists(MAX_NESTING_DEPTH - 1))), null);
    assert.equal(checkNesting(parse(lists(MAX_NESTING_DEPTH))).code, 'GRAPHQL_PARSE_FAILED');
    const types = (n) => `query($v: ${'['.repeat(n)}Int${']'.repeat(n)}) { a }`;
    assert.equal(checkNesting(parse(types(MAX_NESTING_DEPTH))), null);
    assert.equal(checkNesting(parse(types(MAX_NESTING_DEPTH + 1))).code, 'GRAPHQL_PARSE_FAILED');
  });
});

/**
 * naiveCost is gqlgen's complexity.Calculate as it walks: every fragment
 * again at every spread. The measure must give the same figures.
 */
function naiveCost(document, set, parent, variables) {
  const fragments = Object.fromEntries(document.definitions.filter((d) => d.kind === 'FragmentDefinition').map((d) => [d.name.value, d]));
  const walk = (s, type) => {
    let total = 0;
    for (const sel of s?.selections ?? []) {
      if (sel.kind === 'FragmentSpread') {
        const f = fragments[sel.name.value];
        total += walk(f.selectionSet, schema.getType(f.typeCondition.name.value));
      } else if (sel.kind === 'InlineFragment') {
        total += walk(sel.selectionSet, sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type);
      } else if (sel.name.value === '__typename') {
        total += 1;
      } else if (sel.name.value !== '__schema') {
        const def = sel.name.value === '__type' ? { type: schema.getType('__Type') } : type.getFields()[sel.name.value];
        const child = sel.selectionSet ? walk(sel.selectionSet, getNamedType(def.type)) : 0;
        const weight = COMPLEXITY_WEIGHTS[`${type.name}.${sel.name.value}`];
        let n = weight;
        if (weight === 'page') {
          const arg = sel.arguments.find((a) => a.name.value === 'first');
          const first = !arg ? 50 : arg.value.kind === 'Variable' ? variables[arg.value.name.value] : Number(arg.value.value);
          n = Math.min(Math.max(first ?? 50, 1), 1000);
        }
        total += n ? 1 + n * child : 1 + child;
      }
    }
    return total;
  };
  return walk(set, parent);
}

describe('measureOperation', () => {
  const PERSON = 'id appointments { stipends { payer { id } } ... on Appointment { fundings { percent } } }';
  const documents = {
    fragments: `{ ...F1 } fragment F1 on Query { ...F0 ...F0 v: vacancies(first: 7) { nodes { ...V } } } fragment F0 on Query { p: persons(first: 3) { nodes { ...P } } } fragment P on Person { ${PERSON} } fragment V on Vacancy { id title }`,
    'doubling spreads': `{ person(id: 1) { ...F9 } } fragment F0 on Person { id appointments { id } } ${repeatN(9, (i) => `fragment F${i + 1} on Person { ...F${i} ...F${i} } `)}`,
    'a variable page': `query($n: Int) { persons(first: $n) { nodes { ${PERSON} } } }`,
    "the bench's read-many":
      '{ persons(first: 1000) { nodes { id employeeNo firstName lastName email phone department status hiredOn version createdAt updatedAt } pageInfo { endCursor hasNextPage } } }',
    introspection:
      '{ __schema { types { name } } __type(name: "Person") { name fields { name type { name ofType { name } } } } __typename }',
  };
  for (const [name, query] of Object.entries(documents)) {
    test(`costs ${name} as gqlgen's complexity does`, () => {
      const document = parse(query);
      assert.deepEqual(validate(schema, document), []);
      const [operation] = document.definitions;
      const variables = { n: 20 };
      const { refusal, cost } = measureOperation(schema, document, operation, variables);
      assert.equal(refusal, null);
      assert.equal(cost, naiveCost(document, operation.selectionSet, schema.getQueryType(), variables));
    });
  }

  test("refuses depth over 10 and cost over 25000 with the Go app's messages", () => {
    const deep = parse(`{ person(id: 1) { ${'appointments { person { '.repeat(5)}id${' } }'.repeat(5)} } }`);
    assert.deepEqual(plain(measureOperation(schema, deep, deep.definitions[0], {}).refusal), {
      code: 'DEPTH_LIMIT_EXCEEDED',
      message: 'the query nests too deeply: 12 levels, the limit is 10',
    });
    const big = parse('{ persons(first: 1000) { nodes { id appointments { id stipends { id } } } } }');
    assert.deepEqual(plain(measureOperation(schema, big, big.definitions[0], {}).refusal), {
      code: 'COMPLEXITY_LIMIT_EXCEEDED',
      message: 'the query is too complex: it costs 73001, the limit is 25000',
    });
  });

  test('walks each fragment once', () => {
    const document = parse(
      `{ ...F${MAX_FRAGMENTS - 1} } fragment F0 on Query { __typename } ${repeatN(MAX_FRAGMENTS - 1, (i) => `fragment F${i + 1} on Query { ...F${i} ...F${i} } `)}`,
    );
    const { cost, steps } = measureOperation(schema, document, document.definitions[0], {});
    assert.equal(cost, 2 ** (MAX_FRAGMENTS - 1));
    assert.ok(steps <= 4 * MAX_FRAGMENTS + 10, `${steps} steps`);
  });

  test('a request past its deadline is refused UNAVAILABLE', () => {
    const document = parse(documents.fragments);
    const { refusal, steps } = measureOperation(schema, document, document.definitions[0], {}, { deadline: performance.now() - 1 });
    assert.equal(refusal.code, 'UNAVAILABLE');
    assert.equal(steps, 1);
  });
});
