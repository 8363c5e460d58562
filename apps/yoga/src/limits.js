import { GraphQLError, Kind, getNamedType, parse, valueFromAST } from 'graphql';
import { REQUEST_ERROR } from './inputs.js';

// The Go app's limits (apps/graphql/limits.go), refused with the same
// extensions.code, so that neither server can be made to do unbounded work.
export const MAX_QUERY_BYTES = 16 << 10;
export const MAX_QUERY_TOKENS = 4000;
export const MAX_DEPTH = 10;
export const MAX_COMPLEXITY = 25_000;

// Expected list lengths for the complexity estimate; a page costs its size.
const LIST_SIZES = { 'Person.appointments': 10, 'Appointment.stipends': 5, 'Appointment.fundings': 5 };
const PAGED = new Set(['Query.persons', 'Query.vacancies']);

// A refusal is a request error, like a parse error: 400 for clients of
// application/graphql-response+json, 200 for those of application/json.
const refusal = (code, message) => new GraphQLError(message, { extensions: { code, http: { ...REQUEST_ERROR } } });

/** fieldsOf yields the fields of a selection set, fragments expanded. */
function* fieldsOf(selectionSet, fragments) {
  for (const sel of selectionSet?.selections ?? []) {
    if (sel.kind === Kind.FIELD) yield sel;
    else if (sel.kind === Kind.INLINE_FRAGMENT) yield* fieldsOf(sel.selectionSet, fragments);
    else if (sel.kind === Kind.FRAGMENT_SPREAD && fragments[sel.name.value]) {
      yield* fieldsOf(fragments[sel.name.value].selectionSet, fragments);
    }
  }
}

/** depth counts the levels of fields below selectionSet, stopping past stop. */
function depth(selectionSet, fragments, stop) {
  if (stop <= 0) return 0;
  let deepest = 0;
  for (const field of fieldsOf(selectionSet, fragments)) {
    if (field.name.value === '__schema' || field.name.value === '__type') continue;
    deepest = Math.max(deepest, 1 + depth(field.selectionSet, fragments, stop - 1));
    if (deepest >= stop) break;
  }
  return deepest;
}

/**
 * complexity is gqlgen's estimate: a field costs 1 plus its selections; a
 * list costs 1 plus its expected length times one element.
 */
function complexity(selectionSet, type, fragments, variables) {
  let sum = 0;
  for (const field of fieldsOf(selectionSet, fragments)) {
    const def = type.getFields?.()[field.name.value];
    if (!def) continue;
    const child = field.selectionSet ? complexity(field.selectionSet, getNamedType(def.type), fragments, variables) : 0;
    const key = `${type.name}.${field.name.value}`;
    let n = LIST_SIZES[key];
    if (PAGED.has(key)) {
      const arg = field.arguments?.find((a) => a.name.value === 'first');
      const first = arg ? valueFromAST(arg.value, def.args.find((a) => a.name === 'first').type, variables) : 50;
      n = Math.min(Math.max(first ?? 50, 1), 1000);
    }
    sum += n ? 1 + n * child : 1 + child;
    if (sum > Number.MAX_SAFE_INTEGER / 2) return sum;
  }
  return sum;
}

/** useLimits is the Yoga plugin enforcing the limits. */
export function useLimits() {
  return {
    onParse({ params, setParseFn }) {
      const size = Buffer.byteLength(String(params.source?.body ?? params.source ?? ''));
      if (size > MAX_QUERY_BYTES) {
        throw refusal('QUERY_TOO_LARGE', `the query is too large: ${size} bytes, the limit is ${MAX_QUERY_BYTES}`);
      }
      setParseFn((source, options) => parse(source, { ...options, maxTokens: MAX_QUERY_TOKENS }));
    },
    onExecute({ args, setResultAndStopExecution }) {
      const fragments = {};
      let operation;
      for (const def of args.document.definitions) {
        if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
        else if (def.kind === Kind.OPERATION_DEFINITION && (!args.operationName || def.name?.value === args.operationName)) {
          operation ??= def;
        }
      }
      if (!operation) return;
      if (depth(operation.selectionSet, fragments, MAX_DEPTH + 1) > MAX_DEPTH) {
        setResultAndStopExecution({
          errors: [refusal('DEPTH_LIMIT_EXCEEDED', `the query nests too deeply: more than ${MAX_DEPTH} levels`)],
        });
        return;
      }
      const root = operation.operation === 'mutation' ? args.schema.getMutationType() : args.schema.getQueryType();
      const cost = complexity(operation.selectionSet, root, fragments, args.variableValues ?? {});
      if (cost > MAX_COMPLEXITY) {
        setResultAndStopExecution({
          errors: [refusal('COMPLEXITY_LIMIT_EXCEEDED', `operation has complexity ${cost}, which exceeds the limit of ${MAX_COMPLEXITY}`)],
        });
      }
    },
  };
}
