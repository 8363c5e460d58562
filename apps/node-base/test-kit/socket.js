import net from 'node:net';

/** WAIT_MS bounds every wait for the server: far more than a loaded machine needs, far less than a hung test. */
export const WAIT_MS = 20_000;

/**
 * RawConn is a client connection that writes bytes as they are given and
 * reads the server's answers one by one, as serve's socket tests do: what
 * an HTTP client library would refuse to send, or tidy, reaches the server
 * as written.
 */
export class RawConn {
  /** open connects to the host and port of url. */
  static async open(url) {
    const { hostname, port } = new URL(url);
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawConn(socket);
  }

  constructor(socket) {
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    this.ended = false;
    this.waiters = new Set();
    this.closedAt = new Promise((resolve) => socket.once('close', () => resolve(performance.now())));
    socket.on('data', (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('end', () => this.wake((this.ended = true)));
    socket.on('close', () => this.wake((this.ended = true)));
    socket.on('error', () => {}); // a reset is a close; the tests read what came before it
  }

  wake() {
    for (const w of this.waiters) w();
  }

  /** send writes raw, as is. */
  send(raw) {
    if (!this.socket.destroyed) this.socket.write(raw);
  }

  /** until resolves when ready() holds after the data read so far, or rejects after WAIT_MS naming what. */
  until(ready, what) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = ready();
        if (value === undefined) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no ${what} within ${WAIT_MS} ms; read so far: ${JSON.stringify(this.buffer.toString('latin1').slice(0, 300))}`));
      }, WAIT_MS);
      this.waiters.add(check);
      check();
    });
  }

  /**
   * answer resolves with the next response, { status, headers, body }
   * (header names in lower case), a 1xx one included; null when the
   * connection ended before one began.
   */
  answer() {
    return this.until(() => {
      const parsed = parseResponse(this.buffer, this.ended);
      if (parsed === undefined) return this.ended && this.buffer.length === 0 ? null : undefined;
      this.buffer = this.buffer.subarray(parsed.length);
      return parsed.response;
    }, 'answer');
  }

  /** closed resolves when the server has closed the connection, with the moment (performance.now()). */
  closed() {
    return Promise.race([
      this.closedAt,
      new Promise((_, reject) => setTimeout(reject, WAIT_MS, new Error(`the connection is still open after ${WAIT_MS} ms`)).unref()),
    ]);
  }

  /** close ends the connection from the client's side. */
  close() {
    this.socket.destroy();
  }
}

/**
 * exchange sends raw on a new connection to url and resolves with the first
 * answer, whether the server then closed the connection (within WAIT_MS
 * of an answer saying Connection: close), and what it sent after the
 * answer before closing: { response, closed, trailing }.
 */
export async function exchange(url, raw) {
  const conn = await RawConn.open(url);
  try {
    conn.send(raw);
    const response = await conn.answer();
    if (response === null) throw new Error(`no answer to ${JSON.stringify(raw.slice(0, 80))}: the connection closed`);
    if (response.headers.connection?.toLowerCase() !== 'close') {
      // A connection kept open is the answer; none of these tests waits for the idle timeout.
      return { response, closed: false, trailing: '' };
    }
    await conn.closed();
    return { response, closed: true, trailing: conn.buffer.toString('latin1') };
  } finally {
    conn.close();
  }
}

/**
 * parseResponse reads one response from the start of buf; undefined while
 * it is not all there. ended says the server will send no more, which ends
 * a body of unknown length.
 */
function parseResponse(buf, ended) {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(lines[0].split(' ')[1]);
  const headers = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const start = end + 4;
  if (status < 200 || status === 204 || status === 304) return { response: { status, headers, body: '' }, length: start };
  if (headers['content-length'] !== undefined) {
    const n = Number(headers['content-length']);
    if (buf.length < start + n) return undefined;
    return { response: { status, headers, body: buf.subarray(start, start + n).toString() }, length: start + n };
  }
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    let at = start;
    const parts = [];
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(buf.subarray(at, lineEnd).toString('latin1'), 16);
      if (size === 0) {
        if (buf.length < lineEnd + 4) return undefined;
        return { response: { status, headers, body: parts.join('') }, length: lineEnd + 4 };
      }
      if (buf.length < lineEnd + 2 + size + 2) return undefined;
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size).toString());
      at = lineEnd + 2 + size + 2;
    }
  }
  if (!ended) return undefined;
  return { response: { status, headers, body: buf.subarray(start).toString() }, length: buf.length };
}
