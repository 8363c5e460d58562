import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { after, before, describe, test } from 'node:test';
import { RawConn, WAIT_MS } from '@crudbench/node-base/test-kit/socket.js';
import { MAX_METADATA_ENTRIES } from '../src/calls.js';
import { packageDefinition } from '../src/proto.js';
import { startApp } from './start.js';

// Clients that grpc-js's own client would never be: HTTP/2 spoken by hand,
// a request held back, more streams than the server allows, a header block
// over its limit. These are the Go app's tests (apps/grpc/streams_test.go)
// held to grpc-node: each bound is one a hostile or broken client would
// otherwise turn into memory or connections the server keeps for nothing.

const { NGHTTP2_REFUSED_STREAM, NGHTTP2_ENHANCE_YOUR_CALM } = http2.constants;

/** The request deadline of the slow-request suite: several trickled bytes arrive before it. */
const SLOW_TIMEOUT_MS = 2000;

/** How late after its deadline an answer may come on a loaded machine (the Go apps' apptest.StallMargin). */
const MARGIN_MS = 4000;

/** grpcMessage frames a message as gRPC does on the wire: an uncompressed flag, the length, the Protobuf bytes. */
function grpcMessage(bytes) {
  const frame = Buffer.alloc(5 + bytes.length);
  frame.writeUInt32BE(bytes.length, 1);
  bytes.copy(frame, 5);
  return frame;
}

const LOGIN_PATH = '/crudbench.v1.Staff/Login';
const CHECK_PATH = '/grpc.health.v1.Health/Check';
// A login of 117 bytes: trickled a byte every 250 ms, it would take 29 s.
const LOGIN = grpcMessage(
  packageDefinition['crudbench.v1.Staff'].Login.requestSerialize({ username: 'editor', password: 'x'.repeat(100) }),
);
const EMPTY = grpcMessage(Buffer.alloc(0));

/** connect opens a node:http2 session to addr (plaintext, as gRPC's h2c) that may send header blocks of any size. */
function connect(addr) {
  const session = http2.connect(`http://${addr}`, { maxSendHeaderBlockLength: 4 << 20 });
  session.on('error', () => {}); // a connection the server closes is read from the stream's end
  return session;
}

/**
 * open starts a call of path on session with extra header fields after
 * gRPC's own and no body yet, and returns the stream and its end: a
 * promise of { status, reset, goaway, took }, the grpc-status of its
 * trailers (undefined when none came), the RST_STREAM code when there was
 * no status, whether the server sent GOAWAY, and the milliseconds from
 * open to that end. A stream still open after WAIT_MS rejects it.
 */
function open(session, path, extra = {}) {
  const start = performance.now();
  const stream = session.request(
    { ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', ...extra },
    { endStream: false },
  );
  let goaway = false;
  session.once('goaway', () => (goaway = true));
  const end = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${path}: the stream is still open after ${WAIT_MS} ms`)), WAIT_MS);
    const done = (status) => {
      clearTimeout(timer);
      resolve({ status, reset: status === undefined ? stream.rstCode : undefined, goaway, took: performance.now() - start });
    };
    // A trailers-only answer carries grpc-status in its headers.
    stream.on('response', (headers) => headers['grpc-status'] !== undefined && done(headers['grpc-status']));
    stream.on('trailers', (trailers) => done(trailers['grpc-status']));
    stream.on('close', () => done(undefined));
    stream.on('error', () => {}); // a reset: its code is rstCode
    stream.resume();
  });
  return { stream, end };
}

/** call makes a whole call of path with message and resolves with open's end. */
function call(session, path, message, extra) {
  const { stream, end } = open(session, path, extra);
  stream.end(message);
  return end;
}

/** entries returns n metadata entries, x-entry-0 … x-entry-(n-1). */
const entries = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-entry-${i}`, 'v']));

describe('a request held back ends at its deadline, DEADLINE_EXCEEDED', () => {
  // A slow-loris client sends a request a byte at a time, or headers and
  // nothing, to keep a stream (and the call grpc-js made for it) open
  // forever. The deadline is counted from the stream's headers, as an HTTP
  // app bounds a body by its request deadline, and the client's longer
  // grpc-timeout does not push it back.
  let app;
  before(async () => {
    app = await startApp({ REQUEST_TIMEOUT: `${SLOW_TIMEOUT_MS}ms` });
  });
  after(() => app?.stop());

  for (const [name, extra, body] of [
    ['trickled', {}, LOGIN],
    ['trickled under a client deadline of a minute', { 'grpc-timeout': '60S' }, LOGIN],
    ['headers only', {}, Buffer.alloc(0)],
  ]) {
    test(name, async () => {
      const session = connect(app.addr);
      try {
        const { stream, end } = open(session, LOGIN_PATH, extra);
        let sent = 0;
        const trickle = setInterval(() => sent < body.length && !stream.destroyed && stream.write(body.subarray(sent, ++sent)), 250);
        const ended = await end;
        clearInterval(trickle);
        assert.ok(ended.took >= SLOW_TIMEOUT_MS, `ended after ${Math.round(ended.took)} ms, before the ${SLOW_TIMEOUT_MS} ms deadline`);
        assert.ok(ended.took < SLOW_TIMEOUT_MS + MARGIN_MS, `ended after ${Math.round(ended.took)} ms`);
        assert.equal(ended.status, '4', `ended by ${JSON.stringify(ended)}, want trailers with DEADLINE_EXCEEDED (4)`);
        assert.ok(sent < body.length || body.length === 0, 'the whole request arrived: the case tests nothing');
      } finally {
        session.destroy();
      }
    });
  }
});

describe('the header budget and the streams a connection may hold', () => {
  let app;
  before(async () => {
    // The longest deadline REQUEST_TIMEOUT takes: the streams held open
    // wait for requests that never come, and no deadline ends them during
    // the test.
    app = await startApp({ REQUEST_TIMEOUT: '25s' });
  });
  after(() => app?.stop());

  test('a connection holds 100 streams, SETTINGS_MAX_CONCURRENT_STREAMS; the 101st is refused', async () => {
    // Every open stream is a call grpc-js keeps state for: without a cap
    // (grpc-js's default is none) one connection could hold thousands. A
    // conforming client waits for a free stream. One that opens the 101st
    // anyway is refused: grpc-go resets that stream (REFUSED_STREAM);
    // nghttp2, under node:http2, takes a stream past a limit the client
    // has acknowledged for a connection error and ends the connection with
    // GOAWAY, naming stream 199 (the 100th) the last it took.
    const conn = await H2Conn.open(app.addr);
    try {
      assert.equal(conn.settings.get(SETTINGS_MAX_CONCURRENT_STREAMS), 100);
      for (let i = 0; i < 100; i++) conn.headers(2 * i + 1, LOGIN_PATH);
      const past = 2 * 100 + 1;
      conn.headers(past, LOGIN_PATH);
      const end = await conn.streamEnd(past);
      const refused = end.reset === NGHTTP2_REFUSED_STREAM && conn.ended(1) === undefined;
      const closed = end.goaway?.lastStreamId === past - 2;
      assert.ok(
        refused || closed,
        `stream 101 ended by ${JSON.stringify(end)}, want RST_STREAM REFUSED_STREAM or GOAWAY after stream ${past - 2}`,
      );
    } finally {
      conn.close();
    }
  });

  test('a call within the budget is served: 90 entries and a 32 KiB value', async () => {
    const session = connect(app.addr);
    try {
      const end = await call(session, CHECK_PATH, EMPTY, { ...entries(90), 'x-large': 'v'.repeat(32 << 10) });
      assert.equal(end.status, '0', JSON.stringify(end));
    } finally {
      session.destroy();
    }
  });

  test(`more than ${MAX_METADATA_ENTRIES} metadata entries is RESOURCE_EXHAUSTED`, async () => {
    // The HTTP apps take 100 header fields; metadata are a call's headers.
    // Past node:http2's 128 fields the stream is reset ENHANCE_YOUR_CALM
    // before grpc-js sees it, which gRPC's clients read as
    // RESOURCE_EXHAUSTED too.
    const session = connect(app.addr);
    try {
      const over = await call(session, CHECK_PATH, EMPTY, entries(MAX_METADATA_ENTRIES + 1));
      assert.equal(over.status, '8', `${MAX_METADATA_ENTRIES + 1} entries: ${JSON.stringify(over)}`);
      const many = await call(session, CHECK_PATH, EMPTY, entries(1000));
      assert.ok(
        many.status === '8' || many.reset === NGHTTP2_ENHANCE_YOUR_CALM,
        `1000 entries: ${JSON.stringify(many)}, want RESOURCE_EXHAUSTED or RST_STREAM ENHANCE_YOUR_CALM`,
      );
    } finally {
      session.destroy();
    }
  });

  test('a header block over 64 KiB is not served, and the server serves on', async () => {
    // A header block is held in memory whole before any of it is read:
    // the HTTP apps' 64 KiB head, as SETTINGS_MAX_HEADER_LIST_SIZE, which
    // node:http2 enforces as the block arrives (src/server.js sets it;
    // without it an 80 KiB block was served). Each field of the 80 KiB
    // block is 4 KiB, far inside the 64 KiB nghttp2 takes for one field.
    const session = connect(app.addr);
    try {
      await new Promise((resolve) => session.once('remoteSettings', resolve));
      assert.equal(session.remoteSettings.maxHeaderListSize, 64 << 10);
      const fields = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`x-field-${i}`, 'v'.repeat(4 << 10)]));
      const over = await call(session, CHECK_PATH, EMPTY, fields);
      assert.equal(over.reset, NGHTTP2_ENHANCE_YOUR_CALM, `an 80 KiB block: ${JSON.stringify(over)}, want RST_STREAM ENHANCE_YOUR_CALM`);
    } finally {
      session.destroy();
    }
    const huge = connect(app.addr);
    try {
      const end = await call(huge, CHECK_PATH, EMPTY, { 'x-large': 'v'.repeat(1 << 20) });
      assert.equal(end.status, undefined, `a 1 MiB value was answered: ${JSON.stringify(end)}`);
      assert.ok(
        (end.reset !== undefined && end.reset !== 0) || end.goaway,
        `a 1 MiB value: ${JSON.stringify(end)}, want the stream reset or the connection closed`,
      );
    } finally {
      huge.destroy();
    }
    const another = connect(app.addr);
    try {
      const end = await call(another, CHECK_PATH, EMPTY);
      assert.equal(end.status, '0', `another connection after them: ${JSON.stringify(end)}`);
    } finally {
      another.destroy();
    }
  });
});

// A client that writes HTTP/2 frames by hand, for the one request node:http2's
// client will not send: a stream past the server's
// SETTINGS_MAX_CONCURRENT_STREAMS (it waits for a free one, as grpc-js's
// does). It reads frames' types, streams and codes, never their header
// blocks, so it needs no HPACK decoder.

const FRAME = { DATA: 0, HEADERS: 1, RST_STREAM: 3, SETTINGS: 4, PING: 6, GOAWAY: 7 };
const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4 };
const SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
const PREFACE = 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n';

/** frame is one HTTP/2 frame's bytes. */
function frame(type, flags, streamId, payload = Buffer.alloc(0)) {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head.writeUInt8(type, 3);
  head.writeUInt8(flags, 4);
  head.writeUInt32BE(streamId, 5);
  return Buffer.concat([head, payload]);
}

/** hpackInteger is n in HPACK's integer form with a 7-bit prefix (RFC 7541 §5.1), without Huffman's flag. */
function hpackInteger(n) {
  if (n < 127) return Buffer.from([n]);
  const bytes = [127];
  for (n -= 127; n >= 128; n >>= 7) bytes.push((n & 0x7f) | 0x80);
  bytes.push(n);
  return Buffer.from(bytes);
}

/** hpackLiteral is a header field as a literal without indexing, its name and value not Huffman-coded (RFC 7541 §6.2.2). */
function hpackLiteral(name, value) {
  return Buffer.concat([Buffer.from([0]), hpackInteger(name.length), Buffer.from(name), hpackInteger(value.length), Buffer.from(value)]);
}

/** H2Conn is a client connection speaking HTTP/2 frame by frame (h2c with prior knowledge). */
class H2Conn {
  /** open connects to addr, sends the preface and an empty SETTINGS, and resolves once the server's SETTINGS came (acknowledged). */
  static async open(addr) {
    const conn = new H2Conn(await RawConn.open(`http://${addr}`));
    conn.raw.send(Buffer.concat([Buffer.from(PREFACE), frame(FRAME.SETTINGS, 0, 0)]));
    await conn.raw.until(() => conn.read() ?? conn.settings ?? undefined, "the server's SETTINGS");
    return conn;
  }

  constructor(raw) {
    this.raw = raw;
    this.settings = null;
    this.ends = new Map(); // stream id → { reset } or { endStream: true } or { goaway: true }
  }

  /** read takes the whole frames read so far, acknowledging SETTINGS and PING as a client must, and noting how streams ended. */
  read() {
    const buffer = this.raw.buffer;
    let at = 0;
    while (buffer.length - at >= 9) {
      const length = buffer.readUIntBE(at, 3);
      if (buffer.length - at < 9 + length) break;
      const type = buffer.readUInt8(at + 3);
      const flags = buffer.readUInt8(at + 4);
      const streamId = buffer.readUInt32BE(at + 5) & 0x7fffffff;
      const payload = buffer.subarray(at + 9, at + 9 + length);
      at += 9 + length;
      if (type === FRAME.SETTINGS && !(flags & FLAG.ACK)) {
        this.settings = new Map();
        for (let i = 0; i + 6 <= payload.length; i += 6) this.settings.set(payload.readUInt16BE(i), payload.readUInt32BE(i + 2));
        this.raw.send(frame(FRAME.SETTINGS, FLAG.ACK, 0));
      } else if (type === FRAME.PING && !(flags & FLAG.ACK)) {
        this.raw.send(frame(FRAME.PING, FLAG.ACK, 0, payload));
      } else if (type === FRAME.RST_STREAM) {
        this.ends.set(streamId, { reset: payload.readUInt32BE(0) });
      } else if ((type === FRAME.HEADERS || type === FRAME.DATA) && flags & FLAG.END_STREAM) {
        this.ends.set(streamId, { endStream: true });
      } else if (type === FRAME.GOAWAY) {
        this.goaway = { lastStreamId: payload.readUInt32BE(0) & 0x7fffffff, code: payload.readUInt32BE(4) };
      }
    }
    this.raw.buffer = buffer.subarray(at);
    return undefined;
  }

  /** headers opens stream id calling path: gRPC's header fields in one HEADERS frame, no body. */
  headers(id, path) {
    const fields = [
      [':method', 'POST'],
      [':scheme', 'http'],
      [':path', path],
      [':authority', 'localhost'],
      ['content-type', 'application/grpc'],
      ['te', 'trailers'],
    ];
    const block = Buffer.concat(fields.map(([name, value]) => hpackLiteral(name, value)));
    this.raw.send(frame(FRAME.HEADERS, FLAG.END_HEADERS, id, block));
  }

  /** ended is how stream id has ended so far: undefined while it is open. */
  ended(id) {
    this.read();
    if (this.ends.has(id)) return this.ends.get(id);
    if (this.goaway) return { goaway: this.goaway };
    if (this.raw.ended) return { gone: true };
    return undefined;
  }

  /** streamEnd resolves with how stream id ended, within WAIT_MS. */
  streamEnd(id) {
    return this.raw.until(() => this.ended(id), `end of stream ${id} within ${WAIT_MS} ms`);
  }

  close() {
    this.raw.close();
  }
}
