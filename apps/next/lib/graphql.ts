// GraphQL on Apollo Server 5 through its Next.js integration
// (@as-integrations/next), on the Go app's schema with node-base's
// options (graphql/apollo.js: the Go app's codes, statuses and limits),
// resolvers and request context (its dataloaders), as apps/apollo serves it. What
// apollo's Express middleware refuses before Apollo (node-base's
// refuseUnserved, refuseByteOrderMark, bodyRefusal, refuseLargeQuery) is
// refused here in front of the integration, in the same words: the
// integration would read any body itself, and answer a body that is no
// JSON with Next's 500.
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { startServerAndCreateNextHandler } from '@as-integrations/next';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { NextRequest } from 'next/server';
import { apolloOptions, badInput } from '@crudbench/node-base/graphql/apollo.js';
import { requestContext } from '@crudbench/node-base/graphql/context.js';
import { mediaType, requestErrorStatus, responseType } from '@crudbench/node-base/graphql/errors.js';
import { checkQuerySize } from '@crudbench/node-base/graphql/limits.js';
import { parseRequestBody } from '@crudbench/node-base/graphql/variables.js';
import { createResolvers } from '@crudbench/node-base/graphql/resolvers.js';
import { buildSchema } from '@crudbench/node-base/graphql/schema.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';
import { deps, type Deps } from './deps';

/** NOT_A_REQUEST is the message of a body that is no GraphQL request (node-base's). */
const NOT_A_REQUEST = 'the body is not a GraphQL request: send one JSON object like {"query": "…", "variables": {…}}';

// The methods /graphql serves, as the Go app lists them in Allow.
const ALLOW = 'GET, HEAD, POST, OPTIONS';

type Handler = (req: NextRequest) => Promise<Response>;
let handler: Handler | undefined;

/** apolloHandler makes, once, the Apollo Server and the integration's handler over the process's deps. */
function apolloHandler(d: Deps): Handler {
  if (handler) return handler;
  const options = apolloOptions(d.logger);
  const { resolvers } = createResolvers();
  const apollo = new ApolloServer({
    ...options,
    schema: buildSchema({ makeSchema: makeExecutableSchema, resolvers, badInput, schemaDir: d.schemaDir }),
    plugins: [ApolloServerPluginLandingPageDisabled(), ...options.plugins],
  });
  // server.js stops it once the HTTP server has closed.
  d.apollo = apollo;
  const stores = { persons: d.graphqlPersons, personWriter: d.personWriter, vacancies: d.vacancies, users: d.users, tokens: d.tokens };
  handler = startServerAndCreateNextHandler<NextRequest>(apollo, {
    context: async (req) => {
      const { deadline, signal } = req as unknown as Prepared;
      return requestContext(stores, req.headers.get('authorization'), { deadline, signal });
    },
  }) as Handler;
  return handler;
}

/** error answers one GraphQL error with its code, no data, in the media type the client accepts. */
function error(req: Request, status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  const body = JSON.stringify({ errors: [{ message, extensions: { code } }] });
  return new Response(body, { status, headers: { 'Content-Type': responseType(req.headers.get('accept') ?? undefined), ...headers } });
}

/**
 * Prepared is the request the integration reads: the client's method,
 * URL and headers, and its body already read and parsed here (the
 * integration asks for it with json()), with the request's deadline and
 * signal for the limits.
 */
interface Prepared {
  method: string;
  url: string;
  headers: Headers;
  json(): Promise<unknown>;
  text(): Promise<string>;
  deadline: number;
  signal: AbortSignal;
}

/** serve answers one /graphql request. */
export async function serve(req: Request): Promise<Response> {
  const d = deps();
  const deadline = performance.now() + d.requestTimeoutMs;
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  if (!['GET', 'POST', 'OPTIONS'].includes(method)) {
    return error(req, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here: send POST (or GET for a query)`, { Allow: ALLOW });
  }
  if (method === 'OPTIONS') return new Response(null, { status: 200, headers: { Allow: ALLOW } });
  if (Number(req.headers.get('content-length')) > MAX_BODY_BYTES) {
    return error(req, 413, 'REQUEST_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`);
  }
  let parsed: unknown;
  if (method === 'POST') {
    const type = req.headers.get('content-type');
    if (mediaType(type ?? undefined) !== 'application/json') {
      const got = type ? `Content-Type ${type}` : 'no Content-Type';
      return error(req, 415, 'UNSUPPORTED_MEDIA_TYPE', `send the request as Content-Type: application/json, not ${got}`);
    }
    const raw = await readCapped(req);
    if (raw === null) return error(req, 413, 'REQUEST_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`);
    if (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf) return error(req, 400, 'BAD_REQUEST', NOT_A_REQUEST);
    try {
      // Its variables' numbers noted as written (1e3 is no Int), as apollo's
      // Express middleware notes them.
      parsed = parseRequestBody(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      return error(req, 400, 'BAD_REQUEST', NOT_A_REQUEST);
    }
  }
  const query = method === 'POST' ? (parsed as { query?: unknown } | null)?.query : new URL(req.url).searchParams.get('query');
  const refused = typeof query === 'string' ? checkQuerySize(query) : null;
  if (refused) return error(req, requestErrorStatus(req.headers.get('accept') ?? undefined), refused.code, refused.message);
  const prepared: Prepared = {
    method,
    url: req.url,
    headers: req.headers,
    json: async () => parsed,
    text: async () => '',
    deadline,
    signal: req.signal,
  };
  return apolloHandler(d)(prepared as unknown as NextRequest);
}

/** readCapped reads the body whole, or answers null once it passes MAX_BODY_BYTES. */
async function readCapped(req: Request): Promise<Buffer | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return null;
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks, size);
}
