import grpc from '@grpc/grpc-js';
import { appStarter } from '@crudbench/node-base/test-kit/app.js';
import { packageDefinition } from '../src/proto.js';
import { rpcTypes } from '../src/status.js';

// The test harness is node-base's (test-kit/app.js): the app run as its
// own process against the real database, with grpc-js clients of it.
export { DATABASE_URL, devToken } from '@crudbench/node-base/test-kit/app.js';

const proto = grpc.loadPackageDefinition(packageDefinition);
const start = appStarter(new URL('../src/', import.meta.url), { stderr: 'inherit' });

/**
 * startApp runs src/main.js on a free port and resolves once it listens:
 * { addr, staff, health, logs, metricsUrl, stop }, staff and health
 * grpc-js clients of it. stop closes them, sends SIGTERM and resolves with
 * the exit code.
 */
export async function startApp(env = {}) {
  const app = await start(env);
  const insecure = grpc.credentials.createInsecure();
  const staff = new proto.crudbench.v1.Staff(app.addr, insecure);
  const health = new proto.grpc.health.v1.Health(app.addr, insecure);
  const metricsAddr = app.listening.metrics_addr;
  return {
    addr: app.addr,
    staff,
    health,
    logs: app.logs,
    metricsUrl: metricsAddr ? `http://127.0.0.1${metricsAddr}/metrics` : null,
    async stop() {
      staff.close();
      health.close();
      return app.stop();
    },
  };
}

/**
 * call makes a unary call and resolves with { response } or { error } (a
 * grpc-js ServiceError), the metadata sent as an object.
 */
export function call(client, method, request, { metadata = {}, deadlineMs } = {}) {
  const md = new grpc.Metadata();
  for (const [k, v] of Object.entries(metadata)) md.add(k, v);
  const options = deadlineMs ? { deadline: Date.now() + deadlineMs } : {};
  return new Promise((resolve) => {
    client[method](request, md, options, (error, response) => resolve(error ? { error } : { response }));
  });
}

/** bearer is the metadata of a token. */
export const bearer = (token) => ({ authorization: `Bearer ${token}` });

/** login returns a token for the user (the seed's passwords are the names). */
export async function login(app, username = 'editor', password = username) {
  const { response, error } = await call(app.staff, 'Login', { username, password });
  if (error) throw new Error(`login as ${username}: ${error.code} ${error.details}`);
  return response.token;
}

/**
 * details decodes an error's grpc-status-details-bin: [{ type, value }],
 * value the decoded google.rpc.BadRequest or RetryInfo.
 */
export function details(error) {
  const [bin] = error.metadata?.get('grpc-status-details-bin') ?? [];
  if (!bin) return [];
  const status = rpcTypes.Status.decode(bin);
  return status.details.map((any) => {
    const type = any.type_url.replace('type.googleapis.com/', '');
    const decoder = { 'google.rpc.BadRequest': rpcTypes.BadRequest, 'google.rpc.RetryInfo': rpcTypes.RetryInfo }[type];
    return { type, value: decoder ? decoder.toObject(decoder.decode(any.value), { longs: Number }) : null };
  });
}
