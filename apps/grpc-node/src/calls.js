// What every call gets when its stream arrives, before its request is
// read: the Go app's tap handle (admit) and its metrics interceptor
// (observe), as one grpc-js server interceptor.
import grpc from '@grpc/grpc-js';
import { unavailable } from './status.js';

const { status: Code, ServerInterceptingCall } = grpc;

/** MAX_METADATA_ENTRIES is the HTTP apps' header-field budget (serve.MaxHeaderFields). */
export const MAX_METADATA_ENTRIES = 100;

// Go's names of the codes (codes.Code.String()), the metric's label values.
const CODE_NAMES = Object.fromEntries(
  Object.entries(Code).map(([name, n]) => [
    n,
    name === 'CANCELLED' ? 'Canceled' : name.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c) => c.toUpperCase()),
  ]),
);
CODE_NAMES[Code.OK] = 'OK';

/** entries counts a call's metadata entries, every value of a repeated key. */
function entries(metadata) {
  let n = 0;
  for (const values of Object.values(metadata.toJSON())) n += values.length;
  return n;
}

/**
 * admit returns the interceptor that bounds every stream, health's Watch
 * and reflection's too:
 *
 * - metadata of more than MAX_METADATA_ENTRIES entries is
 *   RESOURCE_EXHAUSTED, before the request is read;
 * - the call's deadline is the earlier of the client's (grpc-timeout,
 *   which grpc-js itself answers DEADLINE_EXCEEDED at) and
 *   requestTimeoutMs from the stream's headers (REQUEST_TIMEOUT): a
 *   request that has not all arrived by then (sent a byte at a time, or
 *   never) is DEADLINE_EXCEEDED at it, as the HTTP apps' deadline bounds a
 *   body; a handler still running then is answered UNAVAILABLE with
 *   RetryInfo, the HTTP apps' 503 with Retry-After (the database work it
 *   started goes on until the statement timeout, REQUEST_TIMEOUT too), a
 *   stream (Watch, reflection) DEADLINE_EXCEEDED;
 * - every answered call is observed in metrics (method, code, seconds
 *   from its headers to its status), but those refused before their
 *   request was read, as the Go app's tap handle refuses them.
 */
export function admit({ requestTimeoutMs, metrics, logger }) {
  // Whether to log each call is decided once, as the Go app's observe does.
  const debug = logger.isLevelEnabled('debug');
  return (methodDescriptor, call) => {
    const method = methodDescriptor.path;
    const unary = !methodDescriptor.requestStream && !methodDescriptor.responseStream;
    const start = process.hrtime.bigint();
    let received = false;
    let ended = false;
    let timer = null;
    const finish = (code) => {
      ended = true;
      clearTimeout(timer);
      if (!received) return;
      const name = CODE_NAMES[code] ?? 'Unknown';
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      metrics.observe(method, name, seconds);
      if (debug) logger.debug({ method, code: name, duration: `${(seconds * 1000).toFixed(3)}ms` }, 'call');
    };
    const intercepted = new ServerInterceptingCall(call, {
      start(next) {
        next({
          onReceiveMetadata(metadata, next) {
            if (entries(metadata) > MAX_METADATA_ENTRIES) {
              intercepted.sendStatus({
                code: Code.RESOURCE_EXHAUSTED,
                details: `more than ${MAX_METADATA_ENTRIES} metadata entries`,
              });
              return;
            }
            timer = setTimeout(() => {
              if (ended) return;
              intercepted.sendStatus(
                received && unary
                  ? unavailable('the database did not answer in time')
                  : { code: Code.DEADLINE_EXCEEDED, details: 'the request did not arrive within the deadline' },
              );
            }, requestTimeoutMs);
            next(metadata);
          },
          onReceiveMessage(message, next) {
            received = true;
            next(message);
          },
          onCancel() {
            // grpc-js answered the client's deadline, or the client went away.
            if (!ended) finish(Date.now() >= call.getDeadline() ? Code.DEADLINE_EXCEEDED : Code.CANCELLED);
          },
        });
      },
      sendStatus(status, next) {
        if (ended) return; // answered already, at the deadline: the handler's late answer is dropped
        finish(status.code);
        next(status);
      },
    });
    return intercepted;
  };
}
