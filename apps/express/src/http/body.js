import express from 'express';
import { RequestError, badRequest } from '@crudbench/node-base/errors.js';
import { notWrittenAsIntegers } from '@crudbench/node-base/http/json.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';

// Bodies are read whole (at most 1 MiB) and checked here, in one place: the
// media type, UTF-8, a JSON object, only known members, each of its type.
// The refusals are the Go app's, word for word where the words are ours.

const readRaw = express.raw({ type: () => true, limit: MAX_BODY_BYTES });

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

/**
 * jsonBody returns middleware that decodes the body into req.body following
 * shape, a map from member name to its type. A member absent or null is
 * left out of req.body.
 */
export function jsonBody(shape) {
  return [
    (req, res, next) => {
      const mediaType = (req.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
      if (mediaType !== 'application/json') {
        return next(new RequestError(415, 'the body must be JSON: send Content-Type: application/json'));
      }
      readRaw(req, res, next);
    },
    (req, res, next) => {
      req.body = decode(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), shape);
      next();
    },
  ];
}

function decode(raw, shape) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw);
  } catch {
    throw badRequest('the body is not valid UTF-8');
  }
  // The text keeps a byte-order mark (ignoreBOM) and loses only JSON's
  // white space, as the Go app's: JSON sent over a network carries no mark
  // (RFC 8259, 8.1), and a body that starts with one is not an object.
  const trimmed = text.replace(/^[ \t\r\n]+/, '');
  if (trimmed === '') throw badRequest('the body is empty: send a JSON object');
  if (trimmed[0] !== '{') throw badRequest('the body must be a JSON object');
  let members;
  try {
    members = JSON.parse(text);
  } catch (err) {
    if (/end of JSON/i.test(err.message)) {
      throw badRequest(`the body is not valid JSON: unexpected end of JSON input (at byte ${raw.length})`);
    }
    throw badRequest(`the body is not valid JSON: ${err.message}`);
  }
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
  // Members sent as null are listed so that a patch can tell "clear" from "leave".
  Object.defineProperty(out, 'nulls', { value: nulls });
  return out;
}
