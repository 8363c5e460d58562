import grpc from '@grpc/grpc-js';
import reflection from '@grpc/reflection';
import { loadConfig } from '@crudbench/node-base/config.js';
import { serveDebug } from '@crudbench/node-base/debug.js';
import { createLogger } from '@crudbench/node-base/logger.js';
import { openPool, query } from '@crudbench/node-base/store/pool.js';
import { personStore } from '@crudbench/node-base/store/persons.js';
import { userStore } from '@crudbench/node-base/store/users.js';
import { vacancyStore } from '@crudbench/node-base/store/vacancies.js';
import { createTokens } from '@crudbench/node-base/tokens.js';
import { admit } from './calls.js';
import { addHealth } from './health.js';
import { createMetrics, serveMetrics } from './metrics.js';
import { packageDefinition, staffService } from './proto.js';
import { staffHandlers } from './staff.js';

// rest 8081 … express 8084, yoga 8085, express-cluster 8086, grpc 8087,
// apollo 8088, mercurius 8089, fastify 8090.
const DEFAULT_ADDR = ':8091';
/** SHUTDOWN_GRACE_MS is how long in-flight calls get after a signal, the Go app's. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * SERVER_OPTIONS are the Go app's bounds, as grpc-js names them: a
 * received message of at most the HTTP apps' body limit (1 MiB; larger is
 * RESOURCE_EXHAUSTED), at most 100 streams a connection
 * (SETTINGS_MAX_CONCURRENT_STREAMS; grpc-js's default is unlimited).
 */
const SERVER_OPTIONS = {
  'grpc.max_receive_message_length': 1 << 20,
  'grpc.max_concurrent_streams': 100,
};

/**
 * MAX_HEADER_LIST_BYTES is the HTTP apps' header budget (64 KiB, the Go
 * app's grpc.MaxHeaderListSize), as SETTINGS_MAX_HEADER_LIST_SIZE: node:http2
 * refuses a header block past it as it arrives (RST_STREAM
 * ENHANCE_YOUR_CALM). grpc-js's server takes no option for it
 * ('grpc.max_metadata_size' is not one: grpc-js enforces no metadata
 * limit), and node:http2 neither advertises nor enforces one unless told:
 * an 80 KiB block was served. So the setting is added to the options
 * grpc-js makes its HTTP/2 servers with (commonServerOptions, read when
 * bindAsync creates them; @grpc/grpc-js is pinned, and test/h2.test.js
 * fails should it stop reading them).
 */
const MAX_HEADER_LIST_BYTES = 64 << 10;

/** limitHeaderList adds SETTINGS_MAX_HEADER_LIST_SIZE to the HTTP/2 settings server will listen with. */
function limitHeaderList(server) {
  const options = server.commonServerOptions;
  options.settings = { ...options.settings, maxHeaderListSize: MAX_HEADER_LIST_BYTES };
}

/** run starts the app and resolves once it has shut down after signal. */
export async function run(env, { signal } = {}) {
  const config = loadConfig(env, DEFAULT_ADDR);
  const logger = createLogger(config);

  const pool = openPool(config, 'crudbench-grpc-node');
  const metrics = createMetrics(pool);
  const server = new grpc.Server({
    ...SERVER_OPTIONS,
    interceptors: [admit({ requestTimeoutMs: config.requestTimeoutMs, metrics, logger })],
  });
  limitHeaderList(server);
  server.addService(
    staffService,
    staffHandlers({
      logger,
      persons: personStore(pool),
      vacancies: vacancyStore(pool),
      users: userStore(pool),
      tokens: createTokens(config.authSecret, config.tokenTtlMs),
    }),
  );
  const health = addHealth(server, () => query(pool, 'SELECT 1'), { requestTimeoutMs: config.requestTimeoutMs });
  new reflection.ReflectionService(packageDefinition).addToServer(server);

  // An empty host is every interface, as Go's listen takes it.
  const host = config.addr.host === '' ? '[::]' : config.addr.host.includes(':') ? `[${config.addr.host}]` : config.addr.host;
  const port = await new Promise((resolve, reject) =>
    server.bindAsync(`${host}:${config.addr.port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  const metricsServer = config.metricsAddr ? await serveMetrics(config.metricsAddr, metrics.registry) : null;
  const debug = config.debugAddr ? await serveDebug(config.debugAddr) : null;
  logger.info(
    {
      addr: `${config.addr.host}:${port}`,
      metrics_addr: metricsServer ? `:${metricsServer.address().port}` : '',
      debug_addr: debug ? `${config.debugAddr.host}:${debug.address().port}` : '',
    },
    'listening',
  );

  await new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    signal?.addEventListener('abort', resolve, { once: true });
  });
  logger.info({ timeout: `${SHUTDOWN_GRACE_MS / 1000}s` }, 'shutting down');
  health.shutdown();
  const finished = await new Promise((resolve) => {
    const grace = setTimeout(() => {
      server.forceShutdown();
      resolve(false);
    }, SHUTDOWN_GRACE_MS);
    server.tryShutdown(() => {
      clearTimeout(grace);
      resolve(true);
    });
  });
  if (!finished) logger.warn('calls were still running at the deadline: cancelled');
  metricsServer?.close();
  debug?.close();
  await pool.end();
  logger.info('stopped');
}
