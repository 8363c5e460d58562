// The HTTP/1 rules every crudbench app keeps before its own code runs, as
// the Go apps' net/http and apps/internal/serve keep them: the header
// budget, the Host field, request framing (RFC 9112 §6.1) and the request
// target's form. Node's parser accepts what these refuse.

/** MAX_HEADER_BYTES bounds the request line and header fields together (Go's MaxHeaderBytes). */
export const MAX_HEADER_BYTES = 64 << 10;

/** MAX_HEADER_FIELDS bounds the header fields besides Host (Go's MaxHeaderFields). */
export const MAX_HEADER_FIELDS = 100;

/** MAX_COOKIES bounds the cookies of a request, all Cookie fields together (Go's MaxCookies). */
export const MAX_COOKIES = 200;

/** FRAMED_TWICE is serve's answer to a request framed by both Content-Length and Transfer-Encoding. */
export const FRAMED_TWICE = '400 Bad Request: Transfer-Encoding with Content-Length or in HTTP/1.0 (RFC 9112 section 6.1)';

/** UNSUPPORTED_TRANSFER is net/http's answer to a Transfer-Encoding other than a lone chunked (501). */
export const UNSUPPORTED_TRANSFER = 'Unsupported transfer encoding';

/**
 * refusal returns the answer the Go apps give req before any handler runs,
 * or null when req passes: { status, text, close }, text being the plain
 * text net/http or serve writes, close whether the connection must close
 * (what follows a request framed two ways, or naming two hosts, cannot be
 * told apart from a smuggled request). It reads req.rawHeaders, which the
 * server must not truncate (maxHeadersCount 0: the size is bounded by
 * MAX_HEADER_BYTES already).
 */
export function refusal(req) {
  let hosts = 0;
  let host = '';
  let fields = 0;
  let cookies = 0;
  let contentLength = false;
  const transfer = [];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    const value = raw[i + 1];
    switch (name) {
      case 'host':
        hosts++;
        host = value;
        continue; // not a field of the budget, as for net/http
      case 'cookie':
        cookies += countOf(value, ';') + 1;
        break;
      case 'content-length':
        contentLength = true;
        break;
      case 'transfer-encoding':
        transfer.push(value);
        break;
    }
    fields++;
  }
  if (hosts > 1) return { status: 400, text: '400 Bad Request', close: true };
  if (hosts === 1 && !validHost(host)) return { status: 400, text: '400 Bad Request: malformed Host header', close: true };
  if (transfer.length > 0) {
    // net/http ignores Transfer-Encoding in HTTP/1.0 and serve refuses it;
    // in HTTP/1.1 net/http takes a lone "chunked" and nothing else.
    if (req.httpVersion === '1.0' || (contentLength && isChunked(transfer))) {
      return { status: 400, text: FRAMED_TWICE, close: true };
    }
    if (!isChunked(transfer)) return { status: 501, text: UNSUPPORTED_TRANSFER, close: true };
  }
  if (fields > MAX_HEADER_FIELDS) return tooLarge(`more than ${MAX_HEADER_FIELDS} header fields`);
  if (cookies > MAX_COOKIES) return tooLarge(`more than ${MAX_COOKIES} cookies`);
  return null;
}

const tooLarge = (why) => ({ status: 431, text: `431 Request Header Fields Too Large: ${why}`, close: false });

const isChunked = (transfer) => transfer.length === 1 && transfer[0].trim().toLowerCase() === 'chunked';

function countOf(s, c) {
  let n = 0;
  for (let i = s.indexOf(c); i >= 0; i = s.indexOf(c, i + 1)) n++;
  return n;
}

// The bytes net/http takes in a Host (httpguts.ValidHostHeader).
const HOST_BYTES = /^[A-Za-z0-9!$%&'()*+,\-.:;=[\]_~]*$/;

/**
 * validHost reports whether host is one net/http accepts and a URL can
 * hold: frameworks that build the request's URL from it (Yoga does) fail
 * on the rest, and answer 500 with their stack.
 */
function validHost(host) {
  if (!HOST_BYTES.test(host)) return false;
  if (host === '') return true;
  try {
    new URL(`http://${host}/`);
    return true;
  } catch {
    return false;
  }
}

// An absolute-form request target (RFC 9112 §3.2.2): scheme://authority…
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * originForm returns target as net/http routes it: an absolute-form target
 * ("http://elsewhere/path?q", sent to proxies) by its path and query alone,
 * any other target unchanged. The apps serve their own paths whatever host
 * a target names, and never echo that host.
 */
export function originForm(target) {
  const m = ABSOLUTE.exec(target);
  if (!m) return target;
  const rest = target.slice(m[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
