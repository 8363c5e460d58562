import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { MAX_BODY_BYTES, createServer } from '../src/http/server.js';
import { describeProtocolRules } from '../test-kit/protocol.js';

// A listener that answers as the apps do where the kit looks: /healthz,
// a path that reads its body (413 over the limit), a 404 for anything else.
function listener(req, res) {
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return void res.writeHead(413).end();
  if (req.url === '/healthz') return void res.end('ok');
  if (req.url === '/throw') throw new Error('a secret at /srv/app.js:1:1');
  if (req.url === '/reject') return Promise.reject(new Error('a secret'));
  if (req.url === '/hang') return undefined;
  if (req.url === '/body') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => res.writeHead(200).end(Buffer.concat(chunks)));
    return undefined;
  }
  res.writeHead(404).end('not found');
}

/** serve starts createServer(listener) on a free port: { url, stop, logged }. */
async function serve(requestTimeoutMs, { unavailable = true } = {}) {
  const logged = [];
  const answer = (status, text) => (req, res) => res.writeHead(status, { 'Content-Type': 'text/x-app' }).end(text);
  const server = createServer(listener, {
    requestTimeoutMs,
    logger: { error: (fields, msg) => logged.push({ ...fields, msg }) },
    answers: {
      badBody: answer(400, 'the app: the body could not be read'),
      internal: answer(500, 'the app: internal error'),
      unavailable: unavailable ? answer(503, 'the app: unavailable') : undefined,
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    logged,
    stop: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describeProtocolRules('createServer', {
  start: (env) => serve(Number.parseInt(env.REQUEST_TIMEOUT, 10)),
  bodyPath: '/body',
});

test('an error the listener throws or rejects with is the app’s 500, logged, its details kept out', async () => {
  const app = await serve(5000);
  try {
    for (const path of ['/throw', '/reject']) {
      const res = await fetch(`${app.url}${path}`);
      assert.equal(res.status, 500);
      assert.equal(await res.text(), 'the app: internal error');
    }
    assert.deepEqual(
      app.logged.map((l) => [l.msg, l.path, l.err.message]),
      [
        ['internal error', '/throw', 'a secret at /srv/app.js:1:1'],
        ['internal error', '/reject', 'a secret'],
      ],
    );
  } finally {
    app.stop();
  }
});

test('a request unanswered at the deadline gets the app’s unavailable answer, when it has one', async () => {
  const app = await serve(300);
  try {
    const started = performance.now();
    const res = await fetch(`${app.url}/hang`);
    assert.equal(res.status, 503);
    assert.equal(await res.text(), 'the app: unavailable');
    assert.ok(performance.now() - started >= 290, 'answered before the deadline');
  } finally {
    app.stop();
  }
});
