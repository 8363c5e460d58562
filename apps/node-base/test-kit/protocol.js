import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { MAX_COOKIES, MAX_HEADER_BYTES, MAX_HEADER_FIELDS } from '../src/http/protocol.js';
import { READ_HEADER_TIMEOUT_MS } from '../src/http/server.js';
import { RawConn, exchange } from './socket.js';

// The request deadline the suite starts the app with: short, so that a body
// cut off at it stands out from one held for good.
const REQUEST_TIMEOUT_MS = 1000;

// How late after its bound a connection may close on a loaded machine: 4 s
// was once not enough, with the load average past 20 on two cores. One
// held instead closes only at the next backstop — a body at the 15 s read
// timeout, a head at node's own 30 s check — or never, both past it.
const MARGIN_MS = 8000;

/**
 * describeProtocolRules checks, at the socket, that a Node app keeps the Go
 * apps' HTTP rules (apps/internal/serve, apptest.WantProtocolRules): slow
 * heads and bodies dropped at the Go apps' bounds, the header budget, the
 * framing, Host and Expect refusals with net/http's status, absolute-form
 * targets routed by their path, and no internals in any answer.
 *
 * start(env) starts the app with env added to its environment and
 * resolves with { url, stop }; bodyPath is a path of the app that reads a
 * JSON body (POST), such as its login.
 */
export function describeProtocolRules(name, { start, bodyPath }) {
  describe(`${name} keeps the Go apps' HTTP rules`, () => {
    let app;
    before(async () => {
      app = await start({ REQUEST_TIMEOUT: `${REQUEST_TIMEOUT_MS}ms` });
    });
    after(() => app?.stop());

    test('heads sent a byte every 500 ms are dropped at the read-header timeout', async () => {
      const head = 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: a long header that takes far longer than the timeout to send\r\n\r\n';
      const conns = await Promise.all(Array.from({ length: 20 }, () => RawConn.open(app.url)));
      const opened = performance.now();
      let sent = 0;
      const trickle = setInterval(() => {
        for (const c of conns) c.send(head[sent]);
        sent++;
      }, 500);
      try {
        const idle = await RawConn.open(app.url); // sends nothing at all
        conns.push(idle);
        for (const closedAt of await Promise.all(conns.map((c) => c.closed()))) {
          const took = closedAt - opened;
          // Not much before the timeout either: a head refused for a
          // mistake in it would close at once.
          assert.ok(took > READ_HEADER_TIMEOUT_MS / 2, `a slow head was dropped after ${Math.round(took)} ms, before the timeout`);
          assert.ok(
            took < READ_HEADER_TIMEOUT_MS + MARGIN_MS,
            `a slow head was dropped after ${Math.round(took)} ms, want ${READ_HEADER_TIMEOUT_MS}`,
          );
        }
      } finally {
        clearInterval(trickle);
        for (const c of conns) c.close();
      }
    });

    test('a body sent a byte every 200 ms ends at the request deadline: 400, connection closed', async () => {
      const conn = await RawConn.open(app.url);
      const sent = performance.now();
      conn.send(`POST ${bodyPath} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
      const trickle = setInterval(() => conn.send(' '), 200);
      try {
        const response = await conn.answer();
        assert.equal(response?.status, 400, `answer ${JSON.stringify(response)}`);
        wantNoInternals(response);
        const took = (await conn.closed()) - sent;
        assert.ok(took < REQUEST_TIMEOUT_MS + MARGIN_MS, `closed after ${Math.round(took)} ms, want ${REQUEST_TIMEOUT_MS}`);
      } finally {
        clearInterval(trickle);
        conn.close();
      }
    });

    test('a body no one reads after an early answer ends at the request deadline too', async () => {
      const conn = await RawConn.open(app.url);
      const sent = performance.now();
      conn.send('POST /no-such-path HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      const trickle = setInterval(() => conn.send(' '), 200);
      try {
        assert.equal((await conn.answer())?.status, 404);
        const took = (await conn.closed()) - sent;
        assert.ok(took < REQUEST_TIMEOUT_MS + MARGIN_MS, `closed after ${Math.round(took)} ms, want ${REQUEST_TIMEOUT_MS}`);
      } finally {
        clearInterval(trickle);
        conn.close();
      }
    });

    // Each is followed by a request a proxy in front may not have seen
    // (request smuggling): it must never be answered.
    const smuggled = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
    for (const [what, raw, status] of [
      ['two Host fields', 'GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', 400],
      ['a malformed Host', 'GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n', 400],
      ['a Host no URL can hold', 'GET /healthz HTTP/1.1\r\nHost: [\r\n\r\n', 400],
      ['Transfer-Encoding: gzip, chunked', 'POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n', 501],
      [
        'Transfer-Encoding: chunked twice',
        'POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        501,
      ],
      ['Transfer-Encoding: identity', 'POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity\r\n\r\n', 501],
      [
        'Transfer-Encoding in HTTP/1.0, or with Content-Length',
        [
          'POST /healthz HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
          'POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        ],
        400,
      ],
    ]) {
      test(`${what}: ${status}, connection closed, nothing behind it served`, async () => {
        for (const request of [raw].flat()) {
          const { response, closed, trailing } = await exchange(app.url, request + smuggled);
          assert.equal(response.status, status, `answer ${JSON.stringify(response)}`);
          wantNoInternals(response);
          assert.ok(closed, 'the connection stays open');
          assert.equal(trailing, '', 'the server answered what followed');
        }
      });
    }

    const fields = (n) => Array.from({ length: n }, (_, i) => `X-Field-${i}: v\r\n`).join('');
    const cookies = (n) => `Cookie: ${Array.from({ length: n }, (_, i) => `c${i}=v`).join('; ')}\r\n`;
    // Each budget: served at its bound (Node's own are other), refused past it.
    for (const [what, within, past] of [
      ['header fields', [fields(MAX_HEADER_FIELDS)], [fields(MAX_HEADER_FIELDS + 1)]],
      ['cookies', [cookies(MAX_COOKIES)], [cookies(MAX_COOKIES + 1), cookies(MAX_COOKIES / 2) + cookies(MAX_COOKIES / 2 + 1)]],
      ['header bytes', [`X-Big: ${'a'.repeat(MAX_HEADER_BYTES - 1024)}\r\n`], [`X-Big: ${'a'.repeat(MAX_HEADER_BYTES + 4096)}\r\n`]],
    ]) {
      test(`${what}: 200 within the budget, 431 past it`, async () => {
        for (const [headers, status] of [...within.map((h) => [h, 200]), ...past.map((h) => [h, 431])]) {
          const { response } = await exchange(app.url, `GET /healthz HTTP/1.1\r\nHost: x\r\n${headers}\r\n`);
          assert.equal(response.status, status, `${headers.length} bytes of headers: ${JSON.stringify(response).slice(0, 300)}`);
        }
      });
    }

    test('a head past the budget still being sent gets its 431, not a reset', async () => {
      // Four megabytes of request line, more than the sockets' buffers
      // hold: the parser gives up on it while most of it is in flight.
      // A server (or a framework's own clientError handler behind it)
      // that then closes the socket with those bytes unread makes the
      // kernel reset the connection, and the reset throws away the 431
      // the client had not read yet: it must read them and close after
      // the client, as net/http lingers. The client reads only once it
      // has sent everything, as one that writes its request first does.
      const { hostname, port } = new URL(app.url);
      const socket = net.connect(Number(port), hostname);
      await once(socket, 'connect');
      socket.pause();
      const chunks = [];
      socket.on('data', (c) => chunks.push(c));
      const closed = new Promise((resolve, reject) => {
        socket.on('error', reject);
        socket.on('close', resolve);
      });
      socket.end(`GET /${'1'.repeat(4 << 20)} HTTP/1.1\r\nHost: x\r\n\r\n`, () => socket.resume());
      await closed;
      assert.match(Buffer.concat(chunks).toString('latin1'), /^HTTP\/1\.1 431 /);
    });

    test('Expect: 100-continue: 100 for a body within the limit, 413 and no 100 over it, connection closed', async () => {
      const conn = await RawConn.open(app.url);
      try {
        conn.send(
          `POST ${bodyPath} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n`,
        );
        assert.equal((await conn.answer())?.status, 100);
        conn.send('{}');
        const response = await conn.answer();
        assert.ok(response.status >= 200, `answer ${JSON.stringify(response)}`);
      } finally {
        conn.close();
      }
      const { response, closed } = await exchange(
        app.url,
        `POST ${bodyPath} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${10 << 20}\r\nExpect: 100-continue\r\n\r\n`,
      );
      assert.equal(response.status, 413, `answer ${JSON.stringify(response)}`);
      assert.ok(closed, 'the connection stays open');
    });

    test('an expectation other than 100-continue: 417, connection closed', async () => {
      const { response, closed } = await exchange(
        app.url,
        `POST ${bodyPath} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: something-else\r\n\r\n{}`,
      );
      assert.equal(response.status, 417);
      assert.ok(closed, 'the connection stays open');
    });

    test('an absolute-form target is served by its path, its host never echoed', async () => {
      const ok = await exchange(app.url, 'GET http://evil.example/healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.equal(ok.response.status, 200, `answer ${JSON.stringify(ok.response)}`);
      assert.equal(ok.response.body, 'ok');
      const missing = await exchange(app.url, 'GET http://evil.example/no-such-path HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.equal(missing.response.status, 404, `answer ${JSON.stringify(missing.response)}`);
      assert.doesNotMatch(missing.response.body, /evil\.example/);
      wantNoInternals(missing.response);
    });
  });
}

/** wantNoInternals fails for an answer that is a 500 or shows a stack or the app's files. */
export function wantNoInternals(response) {
  assert.notEqual(response.status, 500, `a 500: ${response.body.slice(0, 300)}`);
  assert.doesNotMatch(response.body, /node_modules|\n\s+at .+:\d+:\d+/, 'the answer shows internals');
}
