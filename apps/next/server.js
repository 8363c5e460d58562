// The crudbench Next.js app: REST, GraphQL and tRPC in one Next.js
// process (App Router route handlers, built by `next build`), served by
// node-base's HTTP server with Next as its request handler — Next's
// documented custom server — so that the Go apps' HTTP rules (slow heads,
// the header budget, framing, a body bounded by the deadline, the request
// deadline's 503) hold in front of Next, as in every other app. `next
// start` would own the HTTP server and hold none of them.
import { fileURLToPath } from 'node:url';
import next from 'next';
import client from 'prom-client';
import { ConfigError } from '@crudbench/node-base/config.js';
import { metricsServer } from '@crudbench/node-base/metrics.js';
import { RETRY_AFTER } from '@crudbench/node-base/http/server.js';
import { run } from '@crudbench/node-base/http/run.js';
import { personStore } from '@crudbench/node-base/store/persons.js';

const DEFAULT_ADDR = ':8096'; // rest 8081, graphql 8082, htmx 8083, express 8084, … trpc 8095

/** PROCESS is where the route handlers find the pool, logger and tokens (lib/deps.ts reads it). */
const PROCESS = Symbol.for('crudbench-next.process');

const dir = fileURLToPath(new URL('.', import.meta.url));

// The Go app's schema files, the one source of truth for every GraphQL app.
const SCHEMA_DIR = new URL('../graphql/graph/', import.meta.url);

/**
 * answers are node-base's server's own answers, in the envelope of the
 * API the path belongs to: a problem under /api/, a GraphQL error at
 * /graphql, tRPC's error under /trpc/.
 */
const answers = {
  badBody: (req, res) => send(req, res, 400, 'the body could not be read'),
  internal: (req, res) => send(req, res, 500, 'internal error'),
  unavailable: (req, res) => {
    res.setHeader('Retry-After', RETRY_AFTER);
    send(req, res, 503, 'the database did not answer in time');
  },
};

const GRAPHQL_CODE = { 400: 'BAD_REQUEST', 500: 'INTERNAL', 503: 'UNAVAILABLE' };
const TRPC_CODE = { 400: ['BAD_REQUEST', -32600], 500: ['INTERNAL_SERVER_ERROR', -32603], 503: ['SERVICE_UNAVAILABLE', -32603] };
const TITLE = { 400: 'Bad Request', 500: 'Internal Server Error', 503: 'Service Unavailable' };

function send(req, res, status, message, fields) {
  const path = req.url.split('?')[0];
  let type = 'application/json';
  let body;
  if (path === '/graphql') {
    body = { errors: [{ message, extensions: { code: GRAPHQL_CODE[status] } }] };
  } else if (path.startsWith('/trpc/')) {
    const [code, rpc] = TRPC_CODE[status];
    body = { error: { message, code: rpc, data: { code, httpStatus: status, ...(fields ? { fields } : {}) } } };
  } else {
    type = 'application/problem+json';
    body = { type: 'about:blank', title: TITLE[status], status, detail: status === 500 ? undefined : message, instance: path, fields };
  }
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(text) }).end(text);
}

/** pathIsUTF8 reports whether the path of url, a request target, decodes as percent-encoded UTF-8. */
function pathIsUTF8(url) {
  const path = url.split('?')[0];
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** badQueryParam names the first parameter of url's query whose escapes are not UTF-8, or answers null. */
function badQueryParam(url) {
  const at = url.indexOf('?');
  if (at < 0 || !url.includes('%', at)) return null;
  for (const pair of url.slice(at + 1).split('&')) {
    const eq = pair.indexOf('=');
    const [key, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    try {
      decodeURIComponent(value.replaceAll('+', ' '));
    } catch {
      try {
        return decodeURIComponent(key.replaceAll('+', ' '));
      } catch {
        return key;
      }
    }
  }
  return null;
}

/** start runs the app and resolves once it has shut down after signal. */
export function start(env, { signal } = {}) {
  return run(
    env,
    { signal },
    {
      defaultAddr: DEFAULT_ADDR,
      name: 'crudbench-next',
      persons: personStore,
      serveMetrics: metricsServer(client),
      async start({ serve, ...deps }) {
        // The route handlers take what they stand on from here: one pool,
        // logger and tokens for the three APIs (lib/deps.ts makes the
        // stores over the pool, from the route bundles' node-base).
        const shared = {
          pool: deps.pool,
          logger: deps.logger,
          tokens: deps.tokens,
          requestTimeoutMs: deps.requestTimeoutMs,
          schemaDir: SCHEMA_DIR,
        };
        globalThis[PROCESS] = shared;
        process.env.NODE_ENV = 'production';
        // Next prints its own lines with console.log ("Running
        // next.config.mjs took …"); stdout carries the app's JSON log lines
        // (pino writes it directly), so Next's go to stderr.
        console.log = console.error;
        const app = next({ dev: false, dir, quiet: true });
        await app.prepare();
        const handle = app.getRequestHandler();
        const server = serve((req, res) => {
          // Next fails a path whose escapes are not UTF-8 with a 500 of its
          // own before any route runs: the Go apps' 400 here.
          if (!pathIsUTF8(req.url)) return send(req, res, 400, 'the path is not valid percent-encoding');
          // Next hands the routes a query whose escapes are not UTF-8 with
          // U+FFFD in their place, which a route cannot tell from a client's
          // U+FFFD: refused here as the REST apps refuse q=%ff and the trpc
          // app input=%ff, naming the parameter.
          const bad = badQueryParam(req.url);
          if (bad !== null && req.url.startsWith('/trpc/')) {
            return send(req, res, 400, 'the query is not valid percent-encoded UTF-8', { input: 'must be valid UTF-8' });
          }
          if (bad !== null && req.url.startsWith('/api/')) return send(req, res, 400, 'invalid input', { [bad]: 'must be valid UTF-8' });
          return handle(req, res);
        }, answers);
        return { server, close: () => shared.apollo?.stop() };
      },
    },
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const controller = new AbortController();
  for (const sig of ['SIGTERM', 'SIGINT']) process.once(sig, () => controller.abort());
  start(process.env, { signal: controller.signal }).catch((err) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
