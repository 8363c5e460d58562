// A GraphQL request's variables read from their JSON text, remembering the
// numbers not written as an int64 in digits (1e3, 1000.0, 1.5,
// 9223372036854775808). JSON.parse reads 1e3 and 1000.0 as 1000, which an
// Int or Int64 takes; the Go app reads each number as it is written and
// refuses them there (docs/contract.md, Hostile input). A reviver in
// Node 20 is not given a number's text, so the text is scanned once more,
// and only when the variables hold a number and the text a digit before
// a fraction or an exponent or 19 digits in a row: no request the runner
// sends. Variables without a number (a read by id, a login) cost a walk of the
// parsed values, not a search of the whole body, query and all.

/** inexact maps a request's parsed variables to their numbers not written as int64s: [{ path, text }]. */
const inexact = new WeakMap();

/** MAYBE finds text that may hold such a number; what it finds in strings is ruled out by the scan. */
const MAYBE = /[0-9][.eE]|[0-9]{19}/;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * parseRequestBody is JSON.parse(text) for a POST's body, its variables'
 * numbers noted (an error when text is no JSON, as JSON.parse's).
 */
export function parseRequestBody(text) {
  const body = JSON.parse(text);
  noteVariables(body?.variables, text, 'variables');
  return body;
}

/** parseVariables is JSON.parse(text) for a GET's variables parameter, its numbers noted. */
export function parseVariables(text) {
  const variables = JSON.parse(text);
  noteVariables(variables, text);
  return variables;
}

/**
 * noteVariables notes the numbers of variables, the object parsed from
 * text (a whole body when member names the member that holds them; a
 * string, or the UTF-8 Buffer it was read as, decoded only when the
 * variables hold a number), that are not written as int64s; a later call
 * for the same object does nothing.
 */
export function noteVariables(variables, text, member) {
  if (typeof variables !== 'object' || variables === null || inexact.has(variables)) return;
  if ((typeof text !== 'string' && !Buffer.isBuffer(text)) || !holdsNumber(variables)) return;
  const source = typeof text === 'string' ? text : text.toString('utf8');
  if (!MAYBE.test(source)) return;
  let found = scanNumbers(source);
  if (member !== undefined) {
    found = found.filter((n) => n.path.length > 1 && n.path[0] === member).map((n) => ({ path: n.path.slice(1), text: n.text }));
  }
  if (found.length > 0) inexact.set(variables, found);
}

/**
 * holdsNumber reports whether value, parsed JSON, holds a number at any
 * depth. It keeps its own stack, as scanNumbers does.
 */
function holdsNumber(value) {
  const pending = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'number') return true;
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v) pending.push(item);
    } else {
      for (const key in v) pending.push(v[key]);
    }
  }
  return false;
}

/** inexactNumbers are the numbers noted for variables, [{ path, text }] (path from the variable's name), or none. */
export function inexactNumbers(variables) {
  return (variables && inexact.get(variables)) ?? [];
}

/**
 * scanNumbers returns where text, valid JSON, holds a number that is not
 * an int64 written in digits: its path (member names and list indexes)
 * and its text. It keeps its own stack, so no nesting JSON.parse took
 * overflows it.
 */
function scanNumbers(text) {
  const found = [];
  const path = [];
  const inObject = [];
  let wantKey = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) {
      inObject.push(true);
      path.push(undefined);
      wantKey = true;
      i++;
    } else if (c === 0x5b /* [ */) {
      inObject.push(false);
      path.push(0);
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      inObject.pop();
      path.pop();
      wantKey = false;
      i++;
    } else if (c === 0x2c /* , */) {
      if (inObject.at(-1)) wantKey = true;
      else path[path.length - 1]++;
      i++;
    } else if (c === 0x22 /* " */) {
      let j = i + 1;
      while (text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c /* \ */ ? 2 : 1;
      if (wantKey) {
        path[path.length - 1] = JSON.parse(text.slice(i, j + 1));
        wantKey = false;
      }
      i = j + 1;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
      const number = text.slice(i, j);
      if (!isInt64(number)) found.push({ path: path.slice(), text: number });
      i = j;
    } else {
      i++; // white space, a colon, true, false, null
    }
  }
  return found;
}

/** isNumberChar reports whether c may stand in a JSON number after its first character. */
const isNumberChar = (c) => (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

/** isInt64 reports whether number, a JSON number's text, is an integer in digits within int64. */
function isInt64(number) {
  if (!/^-?[0-9]+$/.test(number)) return false;
  if (number.length < 19) return true;
  const n = BigInt(number);
  return n >= INT64_MIN && n <= INT64_MAX;
}
