import querystring from 'node:querystring';
import { RequestError, badRequest, invalid } from '../errors.js';

const MAX_INT64 = 2n ** 63n - 1n;

/** pathId reads raw, the id in a REST path, as a positive int64. */
export function pathId(raw) {
  if (!/^\+?\d{1,19}$/.test(raw) || BigInt(raw) < 1n || BigInt(raw) > MAX_INT64) {
    throw badRequest('the id in the path must be a positive whole number', { id: 'must be a positive whole number' });
  }
  // An id past 2^53 is passed on as its digits: a Number would round it.
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : BigInt(raw).toString();
}

/**
 * queryParam returns the first value of the query parameter name, from
 * query as the framework parsed it (node:querystring) and target, the
 * request target, or undefined. A value whose escapes are not UTF-8, which
 * node:querystring reads as U+FFFD, is refused as the Go store refuses it;
 * the target is read again only then.
 */
export function queryParam(query, target, name) {
  const v = query[name];
  const value = Array.isArray(v) ? v[0] : typeof v === 'string' ? v : undefined;
  if (value?.includes('\uFFFD') && !escapesAreUTF8(target, name)) throw invalid({ [name]: 'must be valid UTF-8' });
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
 * updateVersion returns the version a REST update is based on: bodyVersion,
 * "version" in the body (null or undefined when not sent), or ifMatch, the
 * If-Match header (undefined when not sent), which must carry one ETag as
 * the API sends it ("3"). Both, disagreeing, are 400; neither is 428.
 */
export function updateVersion(ifMatch, bodyVersion) {
  const header = (ifMatch ?? '').trim();
  let fromHeader;
  if (header !== '') {
    const m = /^"([+-]?\d+)"$/.exec(header);
    fromHeader = m ? Number(m[1]) : NaN;
    if (!Number.isInteger(fromHeader) || fromHeader < -(2 ** 31) || fromHeader >= 2 ** 31) {
      throw badRequest('If-Match must be one ETag as this API sends it, like "3"');
    }
  }
  if (bodyVersion != null && fromHeader !== undefined && bodyVersion !== fromHeader) {
    throw badRequest("the body's version and If-Match disagree", { version: 'does not match If-Match' });
  }
  const version = bodyVersion ?? fromHeader;
  if (version === undefined) {
    throw new RequestError(428, 'an update must name the version it is based on: send "version" in the body or an If-Match header', {
      version: 'is required',
    });
  }
  return version;
}
