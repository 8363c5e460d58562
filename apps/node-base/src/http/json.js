import { RequestError, badRequest } from '../errors.js';
import { MAX_BODY_BYTES } from './server.js';

// A REST app's JSON request body, read whole (at most 1 MiB) and checked in
// one place: the media type, UTF-8, a JSON object, only known members, each
// of its type, in the Go app's words where the words are ours (decodeBody,
// which the express and nest apps read their bodies with); and what
// JSON.parse does not tell, how a number was written (notWrittenAsIntegers,
// which fastify's Ajv-checked bodies need too).

const TOKEN = /\s*(?:("(?:[^"\\]|\\.)*")|-?\d+(\.\d+)?([eE][+-]?\d+)?|([{}[\]:,])|true|false|null)/y;

/**
 * notWrittenAsIntegers returns the names of the members of text, a JSON
 * object JSON.parse read, whose value is a number written with a fraction
 * or an exponent (1.0, 1e3): JSON.parse gives the same whole number as for
 * 1 or 1000, and the Go apps' decoder refuses them for an integer field.
 * Most bodies have no digit followed by ".", "e" or "E" anywhere, and are
 * not scanned.
 */
export function notWrittenAsIntegers(text) {
  const names = new Set();
  if (!/\d[.eE]/.test(text)) return names;
  let depth = 0;
  let previous = '';
  let key = '';
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    const [, string, fraction, exponent, punctuation] = m;
    if (punctuation === '{' || punctuation === '[') depth++;
    else if (punctuation === '}' || punctuation === ']') depth--;
    else if (depth === 1 && string !== undefined && (previous === '{' || previous === ',')) key = JSON.parse(string);
    else if (depth === 1 && previous === ':' && (fraction || exponent)) names.add(key);
    previous = punctuation ?? 'value';
  }
  return names;
}

/** UNSUPPORTED_MEDIA_TYPE is the 415's detail: the only body the API reads is JSON. */
export const UNSUPPORTED_MEDIA_TYPE = 'the body must be JSON: send Content-Type: application/json';

const TYPE_MESSAGES = {
  string: 'must be a string',
  int32: 'must be a whole number from -2147483648 to 2147483647',
  int64: 'must be a whole number from -9223372036854775808 to 9223372036854775807',
  date: 'must be a date written YYYY-MM-DD',
};

/** isDate reports whether s is a real calendar date written YYYY-MM-DD. */
export function isDate(s) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

const fits = {
  string: (v) => typeof v === 'string',
  int32: (v) => Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31,
  // 2 ** 63 is also what JSON.parse makes of 9223372036854775807 and the
  // few integers below it: a double cannot tell them apart.
  int64: (v) => Number.isInteger(v) && v >= -(2 ** 63) && v < 2 ** 63,
  date: (v) => typeof v === 'string' && isDate(v),
};

/** isJSON reports whether a Content-Type header names application/json, whatever its parameters. */
export const isJSON = (contentType) => (contentType ?? '').split(';')[0].trim().toLowerCase() === 'application/json';

/**
 * readBody resolves with the whole body of req, a node:http request, and
 * rejects with a 413 RequestError once it has passed MAX_BODY_BYTES (a
 * body that declares a larger length is refused before it is read, by the
 * app), or with the stream's error.
 */
export function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    const finish = (err, raw) => {
      req.off('data', onData).off('end', onEnd).off('error', finish);
      if (err) reject(err);
      else resolve(raw);
    };
    const onData = (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) finish(new RequestError(413, `the body is larger than ${MAX_BODY_BYTES} bytes`));
      else chunks.push(chunk);
    };
    const onEnd = () => finish(null, Buffer.concat(chunks, size));
    req.on('data', onData).on('end', onEnd).on('error', finish);
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * parseJSONObject parses raw, a request body that must hold one JSON
 * object, into { members, text }, refusing it in the Go app's words with
 * a 400 RequestError: not UTF-8, empty, not an object, not JSON. What the
 * object may hold is the caller's business (decodeBody, fastify's schemas).
 */
export function parseJSONObject(raw) {
  let text;
  try {
    text = utf8.decode(raw);
  } catch {
    throw badRequest('the body is not valid UTF-8');
  }
  // The text keeps a byte-order mark (ignoreBOM) and loses only JSON's
  // white space, as the Go app's: JSON sent over a network carries no mark
  // (RFC 8259, 8.1), and a body that starts with one is not an object.
  const trimmed = text.replace(/^[ \t\r\n]+/, '');
  if (trimmed === '') throw badRequest('the body is empty: send a JSON object');
  if (trimmed[0] !== '{') throw badRequest('the body must be a JSON object');
  try {
    return { members: JSON.parse(text), text };
  } catch (err) {
    if (/end of JSON/i.test(err.message)) {
      throw badRequest(`the body is not valid JSON: unexpected end of JSON input (at byte ${raw.length})`);
    }
    throw badRequest(`the body is not valid JSON: ${err.message}`);
  }
}

/**
 * decodeBody decodes raw, a request body, into an object following shape,
 * a map from member name to its type (string, int32, int64, date). A member
 * absent or null is left out of the object; the names of those sent as
 * null are its non-enumerable nulls, so that a patch can tell "clear" from
 * "leave". Anything else is refused with a 400 RequestError.
 */
export function decodeBody(raw, shape) {
  const { members, text } = parseJSONObject(raw);
  const unknown = Object.keys(members).filter((k) => !Object.hasOwn(shape, k));
  if (unknown.length > 0) {
    throw badRequest(
      'the body has a field this request does not take',
      Object.fromEntries(unknown.map((k) => [k, 'is not a field of this request'])),
    );
  }
  const inexact = notWrittenAsIntegers(text);
  const out = {};
  const nulls = [];
  for (const [name, type] of Object.entries(shape)) {
    const value = members[name];
    if (value === undefined) continue;
    if (value === null) {
      nulls.push(name);
      continue;
    }
    const integer = type === 'int32' || type === 'int64';
    if (!fits[type](value) || (integer && inexact.has(name))) {
      throw badRequest('a field has the wrong type', { [name]: TYPE_MESSAGES[type] });
    }
    out[name] = value;
  }
  Object.defineProperty(out, 'nulls', { value: nulls });
  return out;
}
