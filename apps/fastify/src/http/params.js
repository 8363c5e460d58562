import querystring from 'node:querystring';
import { RequestError, badRequest, invalid } from '@crudbench/node-base/errors.js';

const MAX_INT64 = 2n ** 63n - 1n;

// The path's id and the query are read here, not by a JSON schema: Ajv's
// coercion would take what the Go app refuses ("1e3", " 7", a repeated
// parameter's second value), and the store already checks the query with
// the Go store's rules and messages.

/** pathId reads the positive int64 id in the path. */
export function pathId(request) {
  const raw = request.params.id;
  if (!/^\+?\d{1,19}$/.test(raw) || BigInt(raw) < 1n || BigInt(raw) > MAX_INT64) {
    throw badRequest('the id in the path must be a positive whole number', {
      id: 'must be a positive whole number',
    });
  }
  // An id past 2^53 is passed on as its digits: a Number would round it.
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : BigInt(raw).toString();
}

/**
 * queryParam returns a query parameter's first value, or undefined. One
 * whose escapes are not UTF-8, which node:querystring reads as U+FFFD, is
 * refused as the Go store refuses it.
 */
export function queryParam(request, name) {
  const v = request.query[name];
  const value = Array.isArray(v) ? v[0] : typeof v === 'string' ? v : undefined;
  if (value?.includes('\uFFFD') && !escapesAreUTF8(request.raw.url, name)) throw invalid({ [name]: 'must be valid UTF-8' });
  return value;
}

/**
 * escapesAreUTF8 reports whether the first value of name in the query of
 * url, a request target, decodes as UTF-8 (or is not there).
 */
function escapesAreUTF8(url, name) {
  const at = url.indexOf('?');
  if (at < 0) return true;
  for (const pair of url.slice(at + 1).split('&')) {
    const eq = pair.indexOf('=');
    const [key, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    if (querystring.unescape(key.replaceAll('+', ' ')) !== name) continue;
    try {
      decodeURIComponent(value.replaceAll('+', ' '));
      return true;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * versionOf returns the version an update is based on: "version" in the
 * body or an If-Match header carrying an ETag this API sent.
 */
export function versionOf(request, bodyVersion) {
  const header = (request.headers['if-match'] ?? '').trim();
  let fromHeader;
  if (header !== '') {
    const m = /^"([+-]?\d+)"$/.exec(header);
    fromHeader = m ? Number(m[1]) : NaN;
    if (!Number.isInteger(fromHeader) || fromHeader < -(2 ** 31) || fromHeader >= 2 ** 31) {
      throw badRequest('If-Match must be one ETag as this API sends it, like "3"');
    }
  }
  if (bodyVersion != null && fromHeader !== undefined && bodyVersion !== fromHeader) {
    throw badRequest("the body's version and If-Match disagree", {
      version: 'does not match If-Match',
    });
  }
  const version = bodyVersion ?? fromHeader;
  if (version === undefined) {
    throw new RequestError(428, 'an update must name the version it is based on: send "version" in the body or an If-Match header', {
      version: 'is required',
    });
  }
  return version;
}

/** withoutNulls returns a body without its null members: a create's null is a member left out. */
export const withoutNulls = (body) => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
