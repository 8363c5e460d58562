// The Go graphql app's limits on one request (apps/graphql/limits.go,
// document.go, operation.go), with its values, codes and messages, for
// every Node app that serves the crudbench schema.
//
// A document of fragments that each spread the previous one twice is small
// to send and exponential to walk naively: 22 levels under 1 KiB stand for
// four million fields. So every walk here computes a fragment's figures once
// and reuses them, and the document is counted before it is validated
// (checkDocument), so that the validator and the operation's measures
// (measureOperation) only ever see documents whose size after expansion is
// bounded: refusing any document costs time linear in its size.
//
// It reads graphql-js's syntax tree and schema objects without importing
// graphql, so that each app's own copy of graphql is the only one.

/** MAX_QUERY_BYTES caps the query text. */
export const MAX_QUERY_BYTES = 16 << 10;
/** MAX_QUERY_TOKENS stops the parser early on a query of many tiny tokens. */
export const MAX_QUERY_TOKENS = 4000;
/**
 * MAX_NESTING_DEPTH is the Go app's parser's (gqlparser's MaxNestingDepth):
 * selection sets, list and object values and list types nested deeper, all
 * counted together, are a parse error there.
 */
export const MAX_NESTING_DEPTH = 1000;
/** MAX_DEPTH caps how deeply fields nest; Appointment.person makes cycles, which this cuts. */
export const MAX_DEPTH = 10;
/** MAX_COMPLEXITY caps gqlgen's estimate of the work (COMPLEXITY_WEIGHTS). */
export const MAX_COMPLEXITY = 25_000;
/** MAX_OPERATIONS caps the operations of a document. */
export const MAX_OPERATIONS = 20;
/** MAX_FRAGMENTS caps fragment definitions. */
export const MAX_FRAGMENTS = 50;
/** MAX_SPREADS caps the fragment spreads written in the document. */
export const MAX_SPREADS = 200;
/** MAX_ALIASES caps aliases (other than a field's own name). */
export const MAX_ALIASES = 200;
/** MAX_DIRECTIVES caps the directives at one place (a field, a fragment, an operation). */
export const MAX_DIRECTIVES = 4;
/** MAX_SELECTIONS caps the selections of a document after expanding its fragments. */
export const MAX_SELECTIONS = 2000;
/** MAX_REPEATS caps how often one response name is selected into one object. */
export const MAX_REPEATS = 10;

/**
 * COMPLEXITY_WEIGHTS are the list fields' weights, the Go app's
 * complexity(): a paged list costs its page size (the argument first,
 * clamped to 1–1000, 50 when null) times an element, the others their
 * expected length; every other field costs 1 plus its children.
 */
export const COMPLEXITY_WEIGHTS = Object.freeze({
  'Query.persons': 'page',
  'Query.vacancies': 'page',
  'Person.appointments': 10,
  'Appointment.stipends': 5,
  'Appointment.fundings': 5,
});
const DEFAULT_PAGE = 50;
const MAX_PAGE = 1000;

/** Refusal is a request the limits refuse: a GraphQL error code and its message. */
export class Refusal {
  constructor(code, message) {
    this.code = code;
    this.message = message;
  }
}

/**
 * CHECK_EVERY is how many steps an analysis takes between two looks at the
 * request's deadline: often enough to stop within microseconds, rarely
 * enough to cost nothing.
 */
export const CHECK_EVERY = 1024;

// A JavaScript thread sees no timer fire while it computes, so the
// deadline is a time compared with the clock, not a timer's abort signal.
const pastDeadline = () => new Refusal('UNAVAILABLE', "the request's deadline passed while its query was being checked; try again");

/** Stepper counts an analysis's steps and looks at the deadline every CHECK_EVERY of them. */
class Stepper {
  constructor({ deadline = Infinity, signal } = {}) {
    this.deadline = deadline;
    this.signal = signal;
    this.steps = 0;
  }

  // tick counts one step and throws the refusal of a request past its
  // deadline (or whose client left); the first step looks, so that a
  // request already past it does no work.
  tick() {
    this.steps++;
    if (this.steps % CHECK_EVERY === 1 && (performance.now() >= this.deadline || this.signal?.aborted)) throw pastDeadline();
  }
}

/** checkQuerySize refuses a query text longer than MAX_QUERY_BYTES bytes, before it is parsed. */
export function checkQuerySize(query) {
  const size = Buffer.byteLength(query);
  if (size <= MAX_QUERY_BYTES) return null;
  return new Refusal('QUERY_TOO_LARGE', `the query is too large: ${size} bytes, the limit is ${MAX_QUERY_BYTES}`);
}

/**
 * checkNesting refuses, as a parse error, a parsed document that nests
 * deeper than MAX_NESTING_DEPTH, as the Go app's parser refuses it.
 */
export function checkNesting(document) {
  let deepest = 0;
  const type = (t, d) => {
    if (t.kind === 'ListType') deepest = Math.max(deepest, d + 1);
    if (t.type) type(t.type, t.kind === 'ListType' ? d + 1 : d);
  };
  const value = (v, d) => {
    if (v.kind === 'ListValue') {
      deepest = Math.max(deepest, d + 1);
      for (const item of v.values) value(item, d + 1);
    } else if (v.kind === 'ObjectValue') {
      deepest = Math.max(deepest, d + 1);
      for (const field of v.fields) value(field.value, d + 1);
    }
  };
  const directives = (dirs, d) => {
    for (const dir of dirs ?? []) for (const arg of dir.arguments ?? []) value(arg.value, d);
  };
  const set = (s, d) => {
    if (!s) return;
    deepest = Math.max(deepest, d + 1);
    for (const sel of s.selections) {
      for (const arg of sel.arguments ?? []) value(arg.value, d + 1);
      directives(sel.directives, d + 1);
      set(sel.selectionSet, d + 1);
    }
  };
  for (const def of document.definitions) {
    for (const v of def.variableDefinitions ?? []) {
      type(v.type, 0);
      if (v.defaultValue) value(v.defaultValue, 0);
      directives(v.directives, 0);
    }
    directives(def.directives, 0);
    set(def.selectionSet, 0);
  }
  if (deepest <= MAX_NESTING_DEPTH) return null;
  return new Refusal('GRAPHQL_PARSE_FAILED', `exceeded maximum nesting depth of ${MAX_NESTING_DEPTH}`);
}

/**
 * checkDocument refuses a parsed, not yet validated document that breaks
 * one of the document limits, in steps linear in its size, or a request
 * whose deadline (a performance.now() time) passes or whose signal aborts
 * meanwhile. Fragments may still be undefined (they count as empty; the
 * validator refuses them) or spread one another in a cycle (refused here,
 * as the validator would). It returns the refusal, or null, and the steps
 * taken.
 */
export function checkDocument(document, { deadline, signal } = {}) {
  const c = new DocumentCounter(new Stepper({ deadline, signal }));
  try {
    return { refusal: c.check(document), steps: c.stepper.steps };
  } catch (err) {
    if (err instanceof Refusal) return { refusal: err, steps: c.stepper.steps };
    throw err;
  }
}

// inProgress marks a fragment whose expansion is being counted.
const IN_PROGRESS = -1;

/** DocumentCounter holds the figures of one document's analysis. */
class DocumentCounter {
  constructor(stepper) {
    this.stepper = stepper;
    this.fragments = new Map();
    // expanded is the number of selections a fragment expands to, counted once.
    this.expanded = new Map();
    this.aliases = 0;
    this.spreads = 0;
  }

  check(document) {
    const operations = document.definitions.filter((d) => d.kind === 'OperationDefinition');
    const fragments = document.definitions.filter((d) => d.kind === 'FragmentDefinition');
    if (operations.length > MAX_OPERATIONS) {
      return new Refusal('OPERATION_LIMIT_EXCEEDED', `the document has ${operations.length} operations, the limit is ${MAX_OPERATIONS}`);
    }
    if (fragments.length > MAX_FRAGMENTS) {
      return new Refusal('FRAGMENT_LIMIT_EXCEEDED', `the document has ${fragments.length} fragments, the limit is ${MAX_FRAGMENTS}`);
    }
    for (const f of fragments) {
      // The first of duplicate names, as the validator has it.
      if (!this.fragments.has(f.name.value)) this.fragments.set(f.name.value, f);
    }
    for (const def of [...operations, ...fragments]) this.text(def.directives, def.selectionSet);

    // Selections after expansion: every operation's, and the unused
    // fragments', which the validator walks too (then refuses).
    const roots = [];
    let total = 0;
    for (const op of operations) {
      total = add(total, this.expand(op.selectionSet));
      roots.push(op.selectionSet);
    }
    for (const f of fragments) {
      if (this.expanded.has(f.name.value)) continue;
      total = add(total, this.fragment(f.name.value));
      roots.push(f.selectionSet);
    }
    if (total > MAX_SELECTIONS) {
      return new Refusal(
        'SELECTION_LIMIT_EXCEEDED',
        `the document selects too many fields: more than ${MAX_SELECTIONS} after expanding its fragments`,
      );
    }

    // Now that expanding it costs at most MAX_SELECTIONS steps, each field
    // the response would merge into one is counted.
    for (const set of roots) this.merged([set]);
    return null;
  }

  // text counts what the document says in so many words: aliases, spreads
  // and the directives at each place, without following spreads.
  text(directives, set) {
    if (directives?.length > MAX_DIRECTIVES) throw tooManyDirectives(directives.length);
    for (const sel of set?.selections ?? []) {
      this.stepper.tick();
      if (sel.kind === 'Field') {
        if (sel.alias && sel.alias.value !== sel.name.value && ++this.aliases > MAX_ALIASES) {
          throw new Refusal('ALIAS_LIMIT_EXCEEDED', `the document has more than ${MAX_ALIASES} aliases`);
        }
        this.text(sel.directives, sel.selectionSet);
      } else if (sel.kind === 'InlineFragment') {
        this.text(sel.directives, sel.selectionSet);
      } else if (sel.kind === 'FragmentSpread') {
        if (++this.spreads > MAX_SPREADS) {
          throw new Refusal('SPREAD_LIMIT_EXCEEDED', `the document has more than ${MAX_SPREADS} fragment spreads`);
        }
        if (sel.directives?.length > MAX_DIRECTIVES) throw tooManyDirectives(sel.directives.length);
      }
    }
  }

  // expand returns the number of selections set expands to (fields, inline
  // fragments and spreads, each fragment's as often as it is spread),
  // counting each fragment once.
  expand(set) {
    let n = 0;
    for (const sel of set?.selections ?? []) {
      this.stepper.tick();
      const child = sel.kind === 'FragmentSpread' ? this.fragment(sel.name.value) : this.expand(sel.selectionSet);
      n = add(n, add(1, child));
    }
    return n;
  }

  // fragment returns the number of selections the fragment name expands to.
  fragment(name) {
    const known = this.expanded.get(name);
    if (known === IN_PROGRESS)
      throw new Refusal('GRAPHQL_VALIDATION_FAILED', `Cannot spread fragment ${JSON.stringify(name)} within itself.`);
    if (known !== undefined) return known;
    const f = this.fragments.get(name);
    if (!f) return 0; // the validator refuses an unknown fragment
    this.expanded.set(name, IN_PROGRESS);
    const n = this.expand(f.selectionSet);
    this.expanded.set(name, n);
    return n;
  }

  // merged refuses a response name that the sets, which the response
  // merges into one object, select more than MAX_REPEATS times (the
  // validator compares every two of them), and goes on with the fields each
  // response name merges. It expands fragments, so it runs only once their
  // expanded size is known to be bounded.
  merged(sets) {
    const count = new Map(); // in the order of first selection
    const children = new Map();
    const collect = (set) => {
      for (const sel of set?.selections ?? []) {
        this.stepper.tick();
        if (sel.kind === 'Field') {
          const name = (sel.alias ?? sel.name).value;
          count.set(name, (count.get(name) ?? 0) + 1);
          if (sel.selectionSet?.selections.length) {
            if (!children.has(name)) children.set(name, []);
            children.get(name).push(sel.selectionSet);
          }
        } else if (sel.kind === 'InlineFragment') {
          collect(sel.selectionSet);
        } else if (sel.kind === 'FragmentSpread') {
          collect(this.fragments.get(sel.name.value)?.selectionSet);
        }
      }
    };
    for (const set of sets) collect(set);
    for (const [name, n] of count) {
      if (n > MAX_REPEATS) {
        throw new Refusal(
          'REPEAT_LIMIT_EXCEEDED',
          `${JSON.stringify(name)} is selected ${n} times in one place, the limit is ${MAX_REPEATS}`,
        );
      }
    }
    for (const name of count.keys()) {
      if (children.has(name)) this.merged(children.get(name));
    }
  }
}

/** tooManyDirectives is the refusal of n directives at one place. */
const tooManyDirectives = (n) => new Refusal('DIRECTIVE_LIMIT_EXCEEDED', `${n} directives at one place, the limit is ${MAX_DIRECTIVES}`);

/** add adds two non-negative counts, stopping at Number.MAX_SAFE_INTEGER. */
const add = (a, b) => Math.min(a + b, Number.MAX_SAFE_INTEGER);

/**
 * measureOperation refuses a validated operation of document that nests
 * deeper than MAX_DEPTH or costs more than MAX_COMPLEXITY, as the Go app's
 * operationLimits does, each fragment's figures computed once: the cost is
 * gqlgen's complexity estimate field for field. variables are the
 * request's. It returns the refusal, or null, the depth, the cost and the
 * steps taken.
 */
export function measureOperation(schema, document, operation, variables, { deadline, signal } = {}) {
  const w = new OperationWalker(schema, document, operation, variables ?? {}, new Stepper({ deadline, signal }));
  try {
    const root =
      operation.operation === 'mutation'
        ? schema.getMutationType()
        : operation.operation === 'subscription'
          ? schema.getSubscriptionType()
          : schema.getQueryType();
    const depth = w.depth(operation.selectionSet);
    const cost = w.cost(operation.selectionSet, root);
    let refusal = null;
    if (depth > MAX_DEPTH) {
      refusal = new Refusal('DEPTH_LIMIT_EXCEEDED', `the query nests too deeply: ${depth} levels, the limit is ${MAX_DEPTH}`);
    } else if (cost > MAX_COMPLEXITY) {
      refusal = new Refusal('COMPLEXITY_LIMIT_EXCEEDED', `the query is too complex: it costs ${cost}, the limit is ${MAX_COMPLEXITY}`);
    }
    return { refusal, depth, cost, steps: w.stepper.steps };
  } catch (err) {
    if (err instanceof Refusal) return { refusal: err, steps: w.stepper.steps };
    throw err;
  }
}

/** OperationWalker computes an operation's depth and cost, a fragment's once. */
class OperationWalker {
  constructor(schema, document, operation, variables, stepper) {
    this.schema = schema;
    this.operation = operation;
    this.variables = variables;
    this.stepper = stepper;
    this.fragments = new Map();
    for (const d of document.definitions) {
      if (d.kind === 'FragmentDefinition' && !this.fragments.has(d.name.value)) this.fragments.set(d.name.value, d);
    }
    this.depths = new Map();
    this.costs = new Map();
  }

  // depth returns how deeply set nests, counting a field as one level and
  // fragments as none. Introspection (__schema, __type) is left out, as the
  // Go app leaves it: GraphiQL's introspection query nests deeply by design.
  depth(set) {
    let deepest = 0;
    for (const sel of set?.selections ?? []) {
      this.stepper.tick();
      let d = 0;
      if (sel.kind === 'Field') {
        if (sel.name.value === '__schema' || sel.name.value === '__type') continue;
        d = 1 + this.depth(sel.selectionSet);
      } else if (sel.kind === 'InlineFragment') {
        d = this.depth(sel.selectionSet);
      } else {
        const name = sel.name.value;
        if (!this.depths.has(name)) this.depths.set(name, this.depth(this.fragments.get(name)?.selectionSet));
        d = this.depths.get(name);
      }
      deepest = Math.max(deepest, d);
    }
    return deepest;
  }

  // cost returns gqlgen's complexity estimate of set, whose objects are of
  // type parent (complexity.Calculate): a field costs its weight or 1 plus
  // its children, __schema costs nothing, and a field of an interface costs
  // what its most expensive implementation's does.
  cost(set, parent) {
    let total = 0;
    for (const sel of set?.selections ?? []) {
      this.stepper.tick();
      if (sel.kind === 'Field') {
        total = add(total, this.fieldCost(sel, parent));
      } else if (sel.kind === 'InlineFragment') {
        const type = sel.typeCondition ? this.schema.getType(sel.typeCondition.name.value) : parent;
        total = add(total, this.cost(sel.selectionSet, type));
      } else {
        const name = sel.name.value;
        if (!this.costs.has(name)) {
          const f = this.fragments.get(name);
          this.costs.set(name, this.cost(f.selectionSet, this.schema.getType(f.typeCondition.name.value)));
        }
        total = add(total, this.costs.get(name));
      }
    }
    return total;
  }

  // fieldCost is the cost of one field selected on an object of type parent.
  fieldCost(field, parent) {
    const name = field.name.value;
    if (name === '__schema') return 0;
    if (name === '__typename') return 1;
    const def = name === '__type' ? { type: this.schema.getType('__Type'), args: [] } : parent.getFields()[name];
    let type = def.type;
    while (type.ofType) type = type.ofType;
    const kind = type[Symbol.toStringTag];
    const child =
      kind === 'GraphQLObjectType' || kind === 'GraphQLInterfaceType' || kind === 'GraphQLUnionType'
        ? this.cost(field.selectionSet, type)
        : 0;
    const owners = parent[Symbol.toStringTag] === 'GraphQLInterfaceType' ? this.schema.getPossibleTypes(parent) : [parent];
    let c = 0;
    for (const owner of owners) c = Math.max(c, this.weighted(`${owner.name}.${name}`, field, def, child));
    return c;
  }

  // weighted is a field's cost by COMPLEXITY_WEIGHTS, or 1 plus its children's.
  weighted(key, field, def, child) {
    const weight = COMPLEXITY_WEIGHTS[key];
    if (weight === undefined) return add(1, child);
    const n = weight === 'page' ? pageSize(this.argument(field, def, 'first')) : weight;
    return add(1, Math.min(n * child, Number.MAX_SAFE_INTEGER));
  }

  // argument is the value the field's argument name has in this request:
  // written, from a variable (or the variable's default), or the
  // argument's default.
  argument(field, def, name) {
    const arg = field.arguments?.find((a) => a.name.value === name);
    const fallback = def.args.find((a) => a.name === name)?.defaultValue;
    if (!arg) return fallback;
    const value = arg.value;
    if (value.kind !== 'Variable') return literal(value);
    const variable = value.name.value;
    if (Object.hasOwn(this.variables, variable) && this.variables[variable] !== undefined) return this.variables[variable];
    const declared = this.operation.variableDefinitions?.find((v) => v.variable.name.value === variable);
    return declared?.defaultValue ? literal(declared.defaultValue) : fallback;
  }
}

/** literal is the number of an Int literal, or null. */
const literal = (value) => (value.kind === 'IntValue' ? Number(value.value) : null);

/** pageSize is the page a list's first argument asks for, clamped to the allowed range. */
function pageSize(first) {
  if (typeof first !== 'number' || Number.isNaN(first)) return DEFAULT_PAGE;
  return Math.min(Math.max(first, 1), MAX_PAGE);
}
