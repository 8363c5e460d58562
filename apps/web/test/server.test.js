// The static server's headers and its proxy, over a real build and a stub
// API on real sockets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { buildVariant } from '../build.js';
import { createServer } from '../server.js';

const out = await mkdtemp(path.join(os.tmpdir(), 'crudbench-web-'));
const { js, css } = await buildVariant('web-rest', out);

// The stub API echoes what reached it.
const api = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-Stub': 'api' });
    res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization ?? null, body }));
  });
});
await new Promise((r) => api.listen(0, '127.0.0.1', r));
const server = await createServer({ root: path.join(out, 'web-rest'), apiURL: `http://127.0.0.1:${api.address().port}` });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

test.after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => api.close(r));
  await rm(out, { recursive: true, force: true });
});

test('hashed assets are immutable, with their type', async () => {
  for (const [p, type] of [
    [js, 'text/javascript; charset=utf-8'],
    [css, 'text/css; charset=utf-8'],
  ]) {
    const res = await fetch(`${base}/${p}`);
    assert.equal(res.status, 200, p);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', p);
    assert.equal(res.headers.get('content-type'), type, p);
    assert.ok((await res.arrayBuffer()).byteLength > 0, p);
  }
});

test('every screen is index.html, revalidated on every view', async () => {
  for (const p of ['/', '/login', '/persons/1', '/vacancies?status=open']) {
    const res = await fetch(base + p);
    assert.equal(res.status, 200, p);
    assert.equal(res.headers.get('cache-control'), 'no-cache', p);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8', p);
    assert.ok((await res.text()).includes(`/${js}`), `${p} is the index naming the bundle`);
    const again = await fetch(base + p, { headers: { 'If-None-Match': res.headers.get('etag') } });
    assert.equal(again.status, 304, `${p} with its ETag`);
  }
});

// get is a GET through node:http, which leaves the encoding to the
// headers given (fetch asks for gzip and decompresses).
function get(p, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(base + p, { headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

test('the index and the assets go gzipped to a client that accepts gzip, as they are to any other', async () => {
  const cases = [
    ['chromium', 'gzip, deflate, br, zstd', true],
    ['weighted', 'br;q=1.0, GZIP;q=0.5', true],
    ['any', '*', true],
    ['no header', undefined, false],
    ['identity', 'identity', false],
    ['gzip refused', 'gzip;q=0, deflate', false],
    ['gzip refused before any', '*, gzip;q=0', false],
    ['brotli only', 'br', false],
  ];
  for (const [p, file] of [
    [`/${js}`, js],
    [`/${css}`, css],
    ['/persons/1', 'index.html'],
  ]) {
    const want = await readFile(path.join(out, 'web-rest', file));
    const etags = new Map();
    for (const [name, acceptEncoding, gzip] of cases) {
      const what = `${p} (${name})`;
      const res = await get(p, acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding });
      assert.equal(res.status, 200, what);
      assert.equal(res.headers.vary, 'Accept-Encoding', what);
      assert.equal(Number(res.headers['content-length']), res.body.length, what);
      assert.equal(res.headers['content-encoding'], gzip ? 'gzip' : undefined, what);
      if (gzip) assert.ok(res.body.length < want.length, `${what}: gzipped ${res.body.length} bytes, the file ${want.length}`);
      assert.ok((gzip ? gunzipSync(res.body) : res.body).equals(want), `${what}: the body is the file`);
      const etag = res.headers.etag;
      if (etags.has(gzip)) assert.equal(etag, etags.get(gzip), `${what}: one ETag per encoding`);
      etags.set(gzip, etag);
      const headers = { 'If-None-Match': etag, ...(acceptEncoding !== undefined && { 'Accept-Encoding': acceptEncoding }) };
      assert.equal((await get(p, headers)).status, 304, `${what} with its ETag`);
    }
    assert.notEqual(etags.get(true), etags.get(false), `${p}: an ETag for each encoding`);
  }
});

test('an unknown asset or file is a 404, not the index', async () => {
  for (const p of ['/assets/app-UNKNOWN.js', '/favicon.ico']) {
    const res = await fetch(base + p);
    assert.equal(res.status, 404, p);
    assert.equal(res.headers.get('cache-control'), 'no-cache', p);
  }
});

test('the API paths go to the API, with method, body and token', async () => {
  for (const [p, method, body] of [
    ['/api/persons/1?x=1', 'GET', undefined],
    ['/api/login', 'POST', '{"username":"editor"}'],
    ['/graphql', 'POST', '{"query":"{ __typename }"}'],
  ]) {
    const res = await fetch(base + p, { method, body, headers: { Authorization: 'Bearer t' } });
    assert.equal(res.status, 200, p);
    assert.equal(res.headers.get('x-stub'), 'api', p);
    assert.deepEqual(await res.json(), { method, url: p, auth: 'Bearer t', body: body ?? '' }, p);
  }
});
