import http from 'node:http';
import { FRAMED_TWICE, MAX_HEADER_BYTES, UNSUPPORTED_TRANSFER, originForm, refusal } from './protocol.js';

/** READ_HEADER_TIMEOUT_MS bounds the wait for a request's head (Go's ReadHeaderTimeout): the slow-loris guard. */
export const READ_HEADER_TIMEOUT_MS = 5_000;

/** READ_TIMEOUT_MS bounds the whole request, body included (Go's ReadTimeout): a backstop behind the request deadline. */
export const READ_TIMEOUT_MS = 15_000;

/** MAX_BODY_BYTES caps every request body (Go's MaxBodyBytes); an Expect: 100-continue over it gets no 100. */
export const MAX_BODY_BYTES = 1 << 20;

/** RETRY_AFTER is the Retry-After of every 503, in seconds, as the Go apps send it. */
export const RETRY_AFTER = '5';

// How often node:http looks for connections past READ_HEADER_TIMEOUT_MS
// or READ_TIMEOUT_MS (30 s by default, which held slow heads 30 s): a slow
// head is dropped at most this much later than Go drops it.
const CHECK_INTERVAL_MS = 250;

// Marks a connection answered with a refusal that closes it: a request
// pipelined behind that refusal is never served.
const refused = Symbol('refused');

/**
 * createServer returns a node:http server that serves listener under the
 * Go apps' HTTP rules (apps/internal/serve): the read-header timeout and the
 * header budget, the framing, Host and Expect rules with net/http's
 * plain-text refusals, absolute-form targets routed by their path, and a
 * body bounded by the request deadline. answers writes the app's own
 * answers, each (req, res):
 *
 * - badBody: a body still arriving requestTimeoutMs after its head (the Go
 *   apps' 400, "the body could not be read"); the connection then closes.
 * - internal: an error listener threw or rejected with, logged at error
 *   level and answered 500 without its details.
 * - unavailable (optional): a request not answered requestTimeoutMs after
 *   its head, the Go apps' 503 with Retry-After, for an app whose own
 *   code has no such deadline.
 *
 * debugPause (config's DEBUG_PAUSE, off by default) holds the event loop
 * on every so many requests: a debugging knob, see holder.
 */
export function createServer(listener, { requestTimeoutMs, logger, answers, debugPause = null }) {
  const server = http.createServer({
    headersTimeout: READ_HEADER_TIMEOUT_MS,
    requestTimeout: READ_TIMEOUT_MS,
    connectionsCheckingInterval: CHECK_INTERVAL_MS,
    maxHeaderSize: MAX_HEADER_BYTES,
    requireHostHeader: true,
  });
  // Every field reaches the budget's count; MAX_HEADER_BYTES bounds them.
  server.maxHeadersCount = 0;

  const hold = holder(debugPause);
  const serve = (req, res, expectsContinue) => {
    if (req.socket[refused]) return;
    hold();
    const refuse = refusal(req);
    if (refuse) {
      if (refuse.close) req.socket[refused] = true;
      writePlain(res, refuse.status, refuse.text, refuse.close);
      return;
    }
    if (expectsContinue) {
      // net/http sends 100 Continue only when the handler reads the body,
      // which a body announced over the limit never gets to; the client's
      // body then has no place on the connection.
      if (Number(req.headers['content-length']) > MAX_BODY_BYTES) res.setHeader('Connection', 'close');
      else res.writeContinue();
    }
    req.url = originForm(req.url);
    boundBody(req, res, requestTimeoutMs, answers.badBody);
    if (answers.unavailable) deadline(req, res, requestTimeoutMs, answers.unavailable);
    const fail = (err) => {
      logger.error({ err, method: req.method, path: req.url.split('?')[0] }, 'internal error');
      if (res.writableEnded) return; // answered already: the error came after
      if (res.headersSent) res.destroy();
      else answers.internal(req, res);
    };
    try {
      const served = listener(req, res);
      if (typeof served?.catch === 'function') served.catch(fail);
    } catch (err) {
      fail(err);
    }
  };
  server.on('request', (req, res) => serve(req, res, false));
  server.on('checkContinue', (req, res) => serve(req, res, true));
  server.on('checkExpectation', (req, res) => {
    if (req.socket[refused]) return;
    req.socket[refused] = true;
    res.writeHead(417, { Connection: 'close', 'Content-Length': 0 }).end();
  });
  server.on('clientError', refuseUnparsed);
  return server;
}

/**
 * holder returns what createServer calls on every request: nothing unless
 * pause ({ ms, every }: config's DEBUG_PAUSE) is set, and then a function
 * that holds the event loop for pause.ms on every pause.every-th request,
 * as a long collection or a long synchronous task would. It waits without
 * using the CPU (Atomics.wait), so the app has CPU to spare however busy
 * the machine is.
 */
function holder(pause) {
  if (!pause) return () => {};
  const cell = new Int32Array(new SharedArrayBuffer(4));
  let n = 0;
  return () => {
    n += 1;
    if (n % pause.every === 0) Atomics.wait(cell, 0, 0, pause.ms);
  };
}

/**
 * boundBody holds the body of req to the request deadline, as serve's
 * boundBodyRead does: a body still arriving timeoutMs after the head is
 * answered by badBody when nothing was answered yet, and its connection
 * closed either way (a body that no one reads, after an early answer,
 * would otherwise hold it until READ_TIMEOUT_MS).
 */
function boundBody(req, res, timeoutMs, badBody) {
  if (req.complete || !hasBody(req)) return;
  const timer = setTimeout(() => {
    if (req.complete) return;
    req.socket[refused] = true;
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    res.setHeader('Connection', 'close');
    res.once('finish', () => req.socket.destroySoon());
    badBody(req, res);
  }, timeoutMs);
  const clear = () => clearTimeout(timer);
  req.once('end', clear);
  req.once('close', clear);
}

const hasBody = (req) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;

/** deadline answers a request still unanswered timeoutMs after its head with unavailable. */
function deadline(req, res, timeoutMs, unavailable) {
  const timer = setTimeout(() => {
    if (!res.headersSent) unavailable(req, res);
  }, timeoutMs);
  res.once('close', () => clearTimeout(timer));
}

/** writePlain answers in plain text, as net/http answers before any handler runs. */
function writePlain(res, status, text, close) {
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) };
  if (close) headers.Connection = 'close';
  res.writeHead(status, headers).end(text);
}

/**
 * refuseUnparsed answers what node:http's parser refuses as net/http and
 * serve answer it, and closes the connection: a head past MAX_HEADER_BYTES
 * 431, Content-Length with Transfer-Encoding serve's 400, another
 * Transfer-Encoding than a lone chunked 501, anything else 400. A head
 * that took longer than READ_HEADER_TIMEOUT_MS, or a client gone, gets no
 * answer, as from net/http.
 */
function refuseUnparsed(err, socket) {
  // The parser errs again on every chunk a lingering client still sends.
  if (socket[lingering]) return;
  const quiet = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ECONNRESET';
  if (quiet || !socket.writable || socket._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  let [status, text] = [400, '400 Bad Request'];
  if (err.code === 'HPE_HEADER_OVERFLOW') [status, text] = [431, '431 Request Header Fields Too Large'];
  else if (/Content-Length/.test(err.reason) && /Transfer-Encoding/.test(err.reason)) text = FRAMED_TWICE;
  else if (err.code === 'HPE_INVALID_TRANSFER_ENCODING') [status, text] = [501, UNSUPPORTED_TRANSFER];
  socket.write(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
  );
  lingerClose(socket);
}

const lingering = Symbol('lingering');

/** LINGER_MS bounds how long lingerClose reads what a refused client still sends. */
const LINGER_MS = 2000;

/**
 * lingerClose closes a connection whose client may still be sending what
 * was refused (a head past the budget), as net/http's closeWriteAndWait
 * does: it ends the answer (the client sees it, then the end), reads and
 * drops what still arrives, and closes once the client has closed too, or
 * LINGER_MS later. node:http's parser, still reading the socket, errs
 * again on every chunk (refuseUnparsed lets it). Closing at once, with the client's bytes unread, makes
 * the kernel reset the connection, and a reset discards the answer the
 * client had not read yet: it would see "connection reset", not 431.
 */
function lingerClose(socket) {
  socket[lingering] = true;
  socket.end();
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
