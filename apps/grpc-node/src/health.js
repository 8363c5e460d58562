// The standard health service (grpc.health.v1.Health, from the
// grpc-health-check package), split as the HTTP apps split /healthz and
// /readyz, as the Go app's health.go: service "" (the server) answers
// SERVING while it serves, without the database (the kind's /healthz, the
// control scenario's floor); service "crudbench.v1.Staff" pings the
// database: SERVING when it answers, NOT_SERVING when it does not (the
// kind's /readyz, which the runner waits for). Both turn NOT_SERVING once
// the server is stopping; any other name is NOT_FOUND. Watch and List are
// the package's, which only report the shutdown.
import { HealthImplementation, service } from 'grpc-health-check';
import { STAFF } from './proto.js';

/** PING_TIMEOUT_MS bounds a Check's database ping, like the HTTP apps' /readyz. */
const PING_TIMEOUT_MS = 2000;

/**
 * addHealth adds the health service to server, Check answering from
 * ping (a promise of the database's answer), and returns { shutdown }.
 * The ping is bounded by PING_TIMEOUT_MS, and answered NOT_SERVING just
 * before the call's own deadline (requestTimeoutMs) when that is shorter,
 * as the Go app's ping ends at the earlier of the two.
 */
export function addHealth(server, ping, { requestTimeoutMs }) {
  const pingTimeoutMs = Math.min(PING_TIMEOUT_MS, requestTimeoutMs - 50);
  const health = new HealthImplementation({ '': 'SERVING', [STAFF]: 'SERVING' });
  // The package's handlers, of which Check is replaced.
  const handlers = {};
  health.addToServer({ addService: (_, impl) => Object.assign(handlers, impl) });
  let stopping = false;

  const check = (call, callback) => {
    const name = call.request.service ?? '';
    if (name !== '' && name !== STAFF) return handlers.check(call, callback);
    if (stopping) return callback(null, { status: 'NOT_SERVING' });
    if (name === '') return callback(null, { status: 'SERVING' });
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('the database did not answer the ping in time')), pingTimeoutMs);
    });
    Promise.race([ping(), timeout])
      .then(
        () => callback(null, { status: 'SERVING' }),
        () => callback(null, { status: 'NOT_SERVING' }),
      )
      .finally(() => clearTimeout(timer));
  };

  server.addService(service, { ...handlers, check });
  return {
    /** shutdown marks every service NOT_SERVING, for Check and Watch alike. */
    shutdown() {
      stopping = true;
      health.setStatus('', 'NOT_SERVING');
      health.setStatus(STAFF, 'NOT_SERVING');
    },
  };
}
