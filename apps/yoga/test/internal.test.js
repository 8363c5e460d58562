import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { createApp } from '../src/app.js';

// The app's listener on a bare node:http server, without node-base's
// protocol rules in front: a request those rules refuse reaches Yoga's
// adapter, which cannot make a URL of it and throws.
let server;
before(async () => {
  const logger = pino({ level: 'silent' });
  server = http.createServer(createApp({ logger, requestTimeoutMs: 5000 }));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
});
after(() => server.close());

/** exchange sends raw on a new connection and resolves with the whole answer once the server ends it. */
function exchange(raw) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.address().port, '127.0.0.1', () => socket.end(raw));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

test("an error in Yoga's adapter is the contract's 500, INTERNAL, without its stack", async () => {
  const answer = await exchange('GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: [\r\nConnection: close\r\n\r\n');
  const [head, body] = answer.split('\r\n\r\n');
  assert.match(head, /^HTTP\/1\.1 500 /, answer);
  assert.match(head, /content-type: application\/json/i, answer);
  assert.deepEqual(JSON.parse(body), { errors: [{ message: 'internal error', extensions: { code: 'INTERNAL' } }] });
  assert.doesNotMatch(answer, /node_modules|at .*\.js:\d+/);
});
