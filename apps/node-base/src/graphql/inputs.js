import {
  GraphQLError,
  Kind,
  coerceInputValue,
  getNamedType,
  isEnumType,
  isLeafType,
  isNonNullType,
  isInputObjectType,
  isListType,
  isSpecifiedScalarType,
  typeFromAST,
  visit,
} from 'graphql';
import { inexactNumbers } from './variables.js';

// Bad input is refused as the Go app refuses it (apps/graphql/README.md,
// Errors), where graphql-js and the GraphQL engines would answer otherwise:
//
// - a leaf value the schema's types refuse (a date that is no date, an
//   enum in the wrong case, a string for a number), written in the document
//   or sent as a variable, is BAD_USER_INPUT with extensions.fields naming
//   the argument or input field, and HTTP 200 whatever the client accepts:
//   gqlgen reads such values when it runs the field;
// - a variable of the wrong shape (required but missing, null where it
//   cannot be, an object that is not one) is GRAPHQL_VALIDATION_FAILED, a
//   request error like a failed validation;
// - a number not written as an int64 in digits (1e3, 1000.0, 1.5, or one
//   beyond int64), which JSON.parse may read as an integer, is refused
//   where an Int or an Int64 takes it, as the Go app reads the number's
//   text: for an Int GRAPHQL_VALIDATION_FAILED (gqlparser validates
//   variables of the built-in scalars), for an Int64 BAD_USER_INPUT naming
//   its field (the app's scalar refuses it). The app parses its body and
//   a GET's variables with variables.js, which notes such numbers.

/**
 * createInputs returns the GraphQL apps' checks of bad input: badInput, the
 * error of a leaf value the schema refuses (node, the value as written in
 * the document, names its field); nameInputErrors, inputNamesAt and
 * variableErrors, below. fieldHttp and requestHttp, when given, are each
 * error's extensions.http (Yoga's way to the HTTP status), copied.
 */
export function createInputs({ fieldHttp, requestHttp } = {}) {
  const http = (h) => (h ? { http: { ...h } } : {});

  function badInput(message, node) {
    return new GraphQLError(message, { nodes: node, extensions: { code: 'BAD_USER_INPUT', ...http(fieldHttp) } });
  }

  /** inputNames maps each value node of the document to the argument or input field it is given for. */
  function inputNames(document) {
    const names = new Map();
    const name = (value, n) => {
      names.set(value, n);
      if (value.kind === Kind.LIST) for (const item of value.values) name(item, n);
    };
    visit(document, {
      Argument: (node) => name(node.value, node.name.value),
      ObjectField: (node) => name(node.value, node.name.value),
    });
    return names;
  }

  /**
   * checkVariables coerces the variables of operation as gqlgen would refuse
   * them, or returns no errors; names() maps each variable to the argument it
   * is given for, and is only asked when a value is refused.
   */
  function checkVariables(schema, operation, inputs, names) {
    const errors = [];
    const numbers = inexactNumbers(inputs);
    for (const def of operation.variableDefinitions ?? []) {
      const variable = def.variable.name.value;
      const type = typeFromAST(schema, def.type);
      if (!type) continue; // validation refused the document already
      const has = Object.hasOwn(inputs, variable);
      const value = inputs[variable];
      if (!has || value === undefined) {
        if (isNonNullType(type) && !def.defaultValue) {
          errors.push(requestError(`Variable "$${variable}" of required type "${type}" was not provided.`, def));
        }
        continue;
      }
      const inexact = numbers.length > 0 && integerError(def, type, numbers, names);
      if (inexact) {
        errors.push(inexact);
        continue;
      }
      coerceInputValue(value, type, (path, invalid, error) => {
        const at = typeAt(type, path);
        if (invalid != null && at && isLeafType(getNamedType(at)) && !notALeafValue(getNamedType(at), invalid)) {
          // The field is the last input field on the path, or the argument the variable is given for.
          const field = path.findLast((p) => typeof p === 'string') ?? names().get(variable) ?? variable;
          const { message } = error;
          errors.push(
            new GraphQLError(message, {
              nodes: def,
              extensions: { code: 'BAD_USER_INPUT', fields: { [field]: message }, ...http(fieldHttp) },
            }),
          );
        } else {
          errors.push(
            requestError(`Variable "$${variable}" got invalid value${path.length ? ` at "${path.join('.')}"` : ''}; ${error.message}`, def),
          );
        }
      });
    }
    return errors;
  }

  /**
   * integerError is the error of the first of numbers (inexactNumbers')
   * given in the variable of def, of type, for an Int or an Int64, or
   * null.
   */
  function integerError(def, type, numbers, names) {
    const variable = def.variable.name.value;
    for (const { path, text } of numbers) {
      if (path[0] !== variable) continue;
      const at = path.slice(1);
      const scalar = typeAt(type, at);
      const name = scalar && getNamedType(scalar).name;
      if (name === 'Int') {
        const where = at.length ? ` at "${at.join('.')}"` : '';
        return requestError(`Variable "$${variable}" got invalid value ${text}${where}; an Int is a whole number written in digits`, def);
      }
      if (name === 'Int64') {
        const field = at.findLast((p) => typeof p === 'string') ?? names().get(variable) ?? variable;
        const message = 'must be a whole number written in digits within int64';
        return new GraphQLError(message, {
          nodes: def,
          extensions: { code: 'BAD_USER_INPUT', fields: { [field]: message }, ...http(fieldHttp) },
        });
      }
    }
    return null;
  }

  /**
   * notALeafValue reports whether value, a list or an object, is given for
   * a built-in scalar or an enum: gqlparser refuses it as the variables are
   * validated ("cannot use slice as ID"), before gqlgen reads any argument.
   */
  function notALeafValue(type, value) {
    return typeof value === 'object' && (isSpecifiedScalarType(type) || isEnumType(type));
  }

  function requestError(message, node) {
    return new GraphQLError(message, { nodes: node, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', ...http(requestHttp) } });
  }

  /** typeAt follows path (input field names, list indexes) from type. */
  function typeAt(type, path) {
    let t = type;
    for (const p of path) {
      while (isNonNullType(t)) t = t.ofType;
      if (typeof p === 'number' && isListType(t)) t = t.ofType;
      else if (typeof p === 'string' && isInputObjectType(t)) t = t.getFields()[p]?.type;
      else return undefined;
      if (!t) return undefined;
    }
    return t;
  }

  /** variableNames maps each variable of operation to the argument or input field it is first given for. */
  function variableNames(document) {
    const names = new Map();
    const keep = (node) => {
      if (node.value.kind === Kind.VARIABLE && !names.has(node.value.name.value)) names.set(node.value.name.value, node.name.value);
    };
    visit(document, { Argument: keep, ObjectField: keep });
    return names;
  }

  /**
   * nameInputErrors names, in extensions.fields, the argument or input field
   * of each BAD_USER_INPUT error validation found in document (a literal
   * the schema's scalars or enums refuse).
   */
  function nameInputErrors(document, errors) {
    let names;
    for (const error of errors) {
      if (error.extensions?.code !== 'BAD_USER_INPUT' || !error.nodes?.length) continue;
      names ??= inputNames(document);
      const field = names.get(error.nodes[0]);
      if (field) error.extensions.fields = { [field]: error.message };
    }
  }

  /**
   * inputNamesAt maps the offset in document's text of each value given for
   * an argument or input field to its name: the document of a refusal is
   * parsed again (errors.js), and its values are found by where they stand.
   */
  function inputNamesAt(document) {
    const names = new Map();
    for (const [value, name] of inputNames(document)) names.set(value.loc.start, name);
    return names;
  }

  /**
   * variableErrors returns the errors of the request's variables for
   * operation, or none.
   */
  function variableErrors(schema, document, operation, variables) {
    // Most requests (every read the bench sends) declare no variables:
    // nothing to check, and no walk over the document on their path.
    if (!operation.variableDefinitions?.length) return [];
    let names;
    return checkVariables(schema, operation, variables ?? {}, () => (names ??= variableNames(document)));
  }

  return { badInput, nameInputErrors, inputNamesAt, variableErrors };
}
