import {
  MAX_ALIASES,
  MAX_DIRECTIVES,
  MAX_FRAGMENTS,
  MAX_OPERATIONS,
  MAX_REPEATS,
  MAX_SELECTIONS,
  MAX_SPREADS,
} from '../src/graphql/limits.js';

// The Go app's TestQueryLimits cases that its document limits decide, as
// node-base's own tests check them on a parsed document and the GraphQL
// apps' suites (test-kit/graphql-limits.js) through HTTP.

/** repeatN joins item(0) … item(n - 1). */
export const repeatN = (n, item) => Array.from({ length: n }, (_, i) => item(i)).join('');

/** DOCUMENT_LIMIT_CASES are the documents over a document limit, each [name, query, the Go app's code]. */
export const DOCUMENT_LIMIT_CASES = [
  ['operations', repeatN(MAX_OPERATIONS + 1, (i) => `query Q${i} { __typename } `), 'OPERATION_LIMIT_EXCEEDED'],
  [
    'fragments',
    `{ ${repeatN(MAX_FRAGMENTS + 1, (i) => `...F${i} `)}} ${repeatN(MAX_FRAGMENTS + 1, (i) => `fragment F${i} on Query { f${i}: __typename } `)}`,
    'FRAGMENT_LIMIT_EXCEEDED',
  ],
  ['spreads', `{ vacancies { nodes { ${'...F '.repeat(MAX_SPREADS + 1)}} } } fragment F on Vacancy { id }`, 'SPREAD_LIMIT_EXCEEDED'],
  ['aliases', `{ ${repeatN(MAX_ALIASES + 1, (i) => `a${i}: __typename `)}}`, 'ALIAS_LIMIT_EXCEEDED'],
  ['directives on a field', `{ __typename${' @include(if: true)'.repeat(MAX_DIRECTIVES + 1)} }`, 'DIRECTIVE_LIMIT_EXCEEDED'],
  [
    'directives on a spread',
    `{ ...F${' @skip(if: false)'.repeat(MAX_DIRECTIVES + 1)} } fragment F on Query { __typename }`,
    'DIRECTIVE_LIMIT_EXCEEDED',
  ],
  [
    'selections after expansion',
    `{ vacancies { nodes { ...F ...F } } } fragment F on Vacancy {${' id'.repeat(MAX_SELECTIONS / 2)} }`,
    'SELECTION_LIMIT_EXCEEDED',
  ],
  ['repeats', `{${' __typename'.repeat(MAX_REPEATS + 1)} }`, 'REPEAT_LIMIT_EXCEEDED'],
  [
    'repeats through fragments',
    `{ ...A ...B } fragment A on Query {${' __typename'.repeat(MAX_REPEATS / 2 + 1)} } fragment B on Query {${' __typename'.repeat(MAX_REPEATS / 2)} }`,
    'REPEAT_LIMIT_EXCEEDED',
  ],
  [
    'repeats in merged objects',
    `{ v: vacancies { nodes {${' id'.repeat(MAX_REPEATS / 2 + 1)} } } v: vacancies { nodes {${' id'.repeat(MAX_REPEATS / 2)} } } }`,
    'REPEAT_LIMIT_EXCEEDED',
  ],
  ['fragment cycle', '{ ...A } fragment A on Query { ...B } fragment B on Query { __typename ...A }', 'GRAPHQL_VALIDATION_FAILED'],
];

/** AT_THE_LIMITS are documents at the document limits, which pass. */
export const AT_THE_LIMITS = [
  `{ ${repeatN(MAX_FRAGMENTS, (i) => `...F${i} `)}} ${repeatN(MAX_FRAGMENTS, (i) => `fragment F${i} on Query { f${i % 10}: __typename } `)}`,
  `{ ${repeatN(MAX_ALIASES, (i) => `a${i}: __typename `)}}`,
  '{ __typename @include(if: true) @skip(if: false) }',
  `{${' __typename'.repeat(MAX_REPEATS)} }`,
];
