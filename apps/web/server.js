// server.js is the SPA's static server: one build's dist folder (WEB_ROOT)
// with a production build's caching — content-hashed assets immutable for a
// year, index.html revalidated on every view — and a same-origin reverse
// proxy of /api/ and /graphql to the API (API_URL), so that the SPA and its
// API share an origin as behind one production front door: no CORS, and the
// API apps stay as they are. It serves what it has in memory, read once at
// start — its text files gzip-compressed then too, to a client that accepts
// gzip — and logs JSON lines as the Go apps do ("listening" with its addr).
import http from 'node:http';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

// compressible are the extensions of the files served gzip-compressed: the
// text a production server compresses. The htmx site's static handler
// (apps/htmx/static.go) compresses the same ones, with the same codec and
// level (gzip, best compression; Go's standard library has no brotli), so
// that the front ends compare fairly.
const compressible = new Set(['.html', '.js', '.css', '.svg', '.json', '.map']);

// proxied are the paths that belong to the API, not to the SPA.
const proxied = (p) => p.startsWith('/api/') || p === '/graphql';

// acceptsGzip reports whether an Accept-Encoding header allows gzip (RFC
// 9110, 12.5.3): gzip, x-gzip or * listed with a weight above 0, gzip's own
// entry before *'s. No header at all gets the file as it is.
function acceptsGzip(header = '') {
  let star = false;
  for (const item of header.split(',')) {
    const [coding, ...params] = item.split(';');
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k.toLowerCase() === 'q') q = Number.parseFloat(v) || 0;
    }
    const c = coding.trim().toLowerCase();
    if (c === 'gzip' || c === 'x-gzip') return q > 0;
    if (c === '*') star = q > 0;
  }
  return star;
}

// load reads every file under root, and gzips the compressible ones once,
// so that no request pays for compression.
async function load(root) {
  const files = new Map();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const body = await readFile(full);
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16);
    const file = { body, etag: `"${hash}"`, type: types[path.extname(full)] ?? 'application/octet-stream' };
    if (compressible.has(path.extname(full))) {
      const gz = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
      if (gz.length < body.length) file.gzip = { body: gz, etag: `"${hash}-gzip"` };
    }
    files.set('/' + path.relative(root, full).split(path.sep).join('/'), file);
  }
  if (!files.has('/index.html')) throw new Error(`${root} has no index.html: run npm run build --workspace apps/web first`);
  return files;
}

function log(level, msg, fields = {}) {
  process.stdout.write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + '\n');
}

// createServer returns the HTTP server for the build in root, proxying the
// API's paths to apiURL.
export async function createServer({ root, apiURL }) {
  const files = await load(root);
  const api = new URL(apiURL);
  const agent = new http.Agent({ keepAlive: true });

  function proxy(req, res) {
    const headers = { ...req.headers, host: api.host };
    const up = http.request({ host: api.hostname, port: api.port, method: req.method, path: req.url, headers, agent }, (upRes) => {
      res.writeHead(upRes.statusCode, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', (err) => {
      log('WARN', 'proxy failed', { path: req.url, error: err.message });
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('the API is unavailable\n');
    });
    req.pipe(up);
  }

  function serve(req, res) {
    const { pathname } = new URL(req.url, 'http://local');
    if (proxied(pathname)) return proxy(req, res);
    if (pathname === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      return res.end('ok\n');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' });
      return res.end();
    }
    const asset = pathname.startsWith('/assets/') ? files.get(pathname) : undefined;
    // A screen's path has no file extension: anything else that is not an
    // asset (an old bundle, /favicon.ico) is not the SPA's.
    if (!asset && (pathname.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(pathname))) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
      return res.end('not found\n');
    }
    // Every other path is a screen of the SPA: its index.html, whose
    // router picks the screen.
    const f = asset ?? files.get('/index.html');
    // A compressible file goes gzipped, with its own ETag, to a client that
    // accepts gzip, as it is to any other; Vary tells caches which.
    const gzip = f.gzip !== undefined && acceptsGzip(req.headers['accept-encoding']);
    const { body, etag } = gzip ? f.gzip : f;
    const headers = {
      'Content-Type': f.type,
      ETag: etag,
      'Cache-Control': asset ? 'public, max-age=31536000, immutable' : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      ...(f.gzip && { Vary: 'Accept-Encoding' }),
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      return res.end();
    }
    res.writeHead(200, { ...headers, ...(gzip && { 'Content-Encoding': 'gzip' }), 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return http.createServer(serve);
}

async function main() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = path.resolve(here, process.env.WEB_ROOT || 'dist/web-rest');
  const apiURL = process.env.API_URL || 'http://127.0.0.1:8081';
  const addr = process.env.ADDR || ':8099';
  const i = addr.lastIndexOf(':');
  const host = addr.slice(0, i) || undefined;
  const server = await createServer({ root, apiURL });
  server.listen(Number(addr.slice(i + 1)), host, () => {
    const a = server.address();
    log('INFO', 'listening', { addr: `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`, root, api: apiURL });
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    log('ERROR', 'start failed', { error: err.message });
    process.exit(1);
  });
}
