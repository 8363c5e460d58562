// The Go graphql app's hostile documents (apps/graphql/hostile_test.go),
// written byte for byte as it writes them, for the Node GraphQL apps'
// tests and benchmarks: each is meant to cost the server as much as a
// document of its size can.
import { MAX_FRAGMENTS, MAX_REPEATS } from './limits.js';

/**
 * UNKNOWN_FIELD ends every hostile document, so that one passing every
 * limit is refused by the validator, having paid for all of it, and
 * nothing runs.
 */
export const UNKNOWN_FIELD = ' noSuchField';

/** PERSON_FIELDS are the scalar fields of a person. */
const PERSON_FIELDS = 'id employeeNo firstName lastName email phone department status hiredOn version createdAt updatedAt';

/**
 * fill returns head, then unit(0), unit(1), … for as long as the document
 * stays within size, then the unknown field and tail.
 */
function fill(size, head, tail, unit) {
  let doc = head;
  const room = size - UNKNOWN_FIELD.length - tail.length;
  for (let i = 0; ; i++) {
    const u = unit(i);
    if (doc.length + u.length > room) break;
    doc += u;
  }
  return doc + UNKNOWN_FIELD + tail;
}

/**
 * doubling writes as many doubling levels over fragment F0 as fit in size,
 * up to the fragment limit, then widens the fragments with the fields of a
 * person until the document has size bytes.
 */
function doubling(size, level) {
  const head = (levels) => `{ person(id: 1) { ...F${levels}${UNKNOWN_FIELD} } }`;
  const frags = [' fragment F0 on Person { id'];
  let used = head(0).length + frags[0].length + ' }'.length;
  for (let i = 1; i < MAX_FRAGMENTS; i++) {
    const f = ` fragment F${i} on Person { ${level(i)}`;
    if (used + f.length + ' }'.length + 2 > size) break;
    frags.push(f);
    used += f.length + ' }'.length;
  }
  used += head(frags.length - 1).length - head(0).length;
  const fields = PERSON_FIELDS.split(' ');
  for (let i = 0; ; i++) {
    const f = ` ${fields[i % fields.length]}`;
    if (used + f.length > size) break;
    frags[i % frags.length] += f;
    used += f.length;
  }
  return head(frags.length - 1) + frags.join(' }') + ' }';
}

/**
 * doublingSpreads is the document of the report: fragment Fi spreads F(i-1)
 * twice, so that the last stands for 2^i fields.
 */
export const doublingSpreads = (size) => doubling(size, (i) => `...F${i - 1} ...F${i - 1}`);

/** nestedDoubling doubles through fields, so that the depth grows with the expansion too. */
export const nestedDoubling = (size) =>
  doubling(size, (i) => `a: appointments { person { ...F${i - 1} } } b: appointments { person { ...F${i - 1} } }`);

/**
 * selfDoubling is the document: doublingSpreads with exactly levels
 * levels and no unknown field, a valid document that only a limit refuses
 * (22 levels, under 1 KiB, stand for 2^22 selections).
 */
export function selfDoubling(levels) {
  let doc = `{ person(id: 1) { ...F${levels} } } fragment F0 on Person { id }`;
  for (let i = 1; i <= levels; i++) doc += ` fragment F${i} on Person { ...F${i - 1} ...F${i - 1} }`;
  return doc;
}

/** wideFragments spreads many small fragments side by side in one selection set. */
function wideFragments(size) {
  let ops = '{';
  let frags = '';
  for (let i = 0; ; i++) {
    const spread = ` ...W${i}`;
    const frag = ` fragment W${i} on Query { w${i}: __typename }`;
    if (ops.length + frags.length + spread.length + frag.length + UNKNOWN_FIELD.length + 2 > size) break;
    ops += spread;
    frags += frag;
  }
  return `${ops}${UNKNOWN_FIELD} }${frags}`;
}

/** fragmentChain has each fragment spread the next. */
function fragmentChain(size) {
  let doc = `{ ...C0${UNKNOWN_FIELD} }`;
  let i = 0;
  for (; ; i++) {
    const frag = ` fragment C${i} on Query { c${i}: __typename ...C${i + 1} }`;
    if (doc.length + frag.length + 40 > size) break;
    doc += frag;
  }
  return `${doc} fragment C${i} on Query { __typename }`;
}

/**
 * atTheLimits comes as close to every document limit at once as its size
 * allows: persons under distinct aliases, each spreading MAX_REPEATS
 * fragments that select the same fields; names are lengthened to fill the
 * size.
 */
function atTheLimits(size) {
  const write = (fragments, objects, pad) => {
    const name = (i) => `P${i}${'x'.repeat(pad)}`;
    let doc = '{';
    for (let i = 0; i < objects; i++) {
      doc += ` p${i}: person(id: 1) {`;
      for (let j = 0; j < MAX_REPEATS; j++) doc += ` ...${name((i * MAX_REPEATS + j) % fragments)}`;
      doc += ' }';
    }
    doc += `${UNKNOWN_FIELD} }`;
    for (let i = 0; i < fragments; i++) doc += ` fragment ${name(i)} on Person { ${PERSON_FIELDS} }`;
    return doc;
  };
  let fragments = MAX_FRAGMENTS;
  let objects = 15;
  while (write(fragments, objects, 0).length > size && fragments > 1) {
    fragments = Math.max(1, Math.trunc((fragments * 9) / 10));
    objects = Math.max(1, Math.trunc((objects * 9) / 10));
  }
  let pad = 0;
  while (write(fragments, objects, pad + 1).length <= size) pad++;
  return write(fragments, objects, pad);
}

/** deepNesting nests persons and their appointments as deeply as the size allows. */
function deepNesting(size) {
  const open = ' appointments { person {';
  const close = ' } }';
  const levels = Math.trunc((size - '{ person(id: 1) { id } }'.length - UNKNOWN_FIELD.length) / (open.length + close.length));
  return `{ person(id: 1) {${open.repeat(levels)} id${close.repeat(levels)} }${UNKNOWN_FIELD} }`;
}

/**
 * HOSTILE_SHAPES are the worst cases found for each way of multiplying
 * work, each { name, write(size) } writing a document of about size bytes:
 * spreads that double, many aliases, one field many times, fields the
 * schema lacks, many directives, many fragments side by side or in a
 * chain, deep nesting, and a document close to every limit at once.
 */
export const HOSTILE_SHAPES = Object.freeze([
  { name: 'doubling-spreads', write: doublingSpreads },
  { name: 'nested-doubling', write: nestedDoubling },
  { name: 'aliases', write: (size) => fill(size, '{', '}', (i) => ` a${i}: __typename`) },
  { name: 'repeated-field', write: (size) => fill(size, '{', '}', () => ' __typename') },
  {
    name: 'conflicting-aliases',
    write: (size) => fill(size, '{', '}', (i) => (i % 2 === 0 ? ' x: __typename' : ' x: __schema { description }')),
  },
  { name: 'unknown-fields', write: (size) => fill(size, '{', '}', (i) => ` personz${i}`) },
  { name: 'directives', write: (size) => fill(size, '{ __typename', '}', () => ' @skip(if: false)') },
  { name: 'wide-fragments', write: wideFragments },
  { name: 'fragment-chain', write: fragmentChain },
  { name: 'deep-nesting', write: deepNesting },
  { name: 'at-the-limits', write: atTheLimits },
]);
