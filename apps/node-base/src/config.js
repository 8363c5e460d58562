// Settings come from the same environment variables, with the same defaults
// and limits, as the Go apps (apps/internal/config), so that every app in a
// benchmark is configured the same way.
import { isIPv4 } from 'node:net';

export const DEV_AUTH_SECRET = 'crudbench-dev-secret-change-me';

const MAX_REQUEST_TIMEOUT_MS = 25_000;

export class ConfigError extends Error {}

/**
 * loadConfig reads the configuration from env and throws a ConfigError
 * naming the variable of the first invalid value.
 */
export function loadConfig(env, defaultAddr) {
  const read = (name, def, parse) => {
    const raw = env[name] ?? '';
    const value = raw === '' ? def : raw;
    try {
      return parse(value);
    } catch (err) {
      // Credentials may sit in these two: never echo them.
      const shown = name === 'DATABASE_URL' || name === 'AUTH_SECRET' ? '' : ` ${JSON.stringify(value)}`;
      throw new ConfigError(`config: ${raw === '' ? 'default ' : ''}${name}${shown}: ${err.message}`);
    }
  };
  return {
    databaseUrl: read('DATABASE_URL', 'postgres://postgres@localhost:5432/crudbench?sslmode=disable', nonEmpty),
    addr: read('ADDR', defaultAddr, address),
    dbMaxConns: read('DB_MAX_CONNS', '20', maxConns),
    logLevel: read('LOG_LEVEL', 'info', logLevel),
    authSecret: read('AUTH_SECRET', DEV_AUTH_SECRET, authSecret),
    tokenTtlMs: read('TOKEN_TTL', '1h', (s) => duration(s, 'must be a positive duration such as 12h or 30m')),
    requestTimeoutMs: read('REQUEST_TIMEOUT', '5s', requestTimeout),
    metricsAddr: read('METRICS_ADDR', '', (s) => (s === '' ? null : address(s, 'must be empty or host:port, for example :9100'))),
    debugAddr: read('DEBUG_ADDR', '', debugAddress),
    debugPause: read('DEBUG_PAUSE', '', debugPause),
  };
}

/**
 * debugPause reads DEBUG_PAUSE, a debugging knob that is off unless set:
 * "300ms/20" holds the event loop for 300 ms on every 20th request
 * (createServer), so that a test can check the bench names the pauses
 * behind a tail. Never set it for a measurement.
 */
function debugPause(s) {
  if (s === '') return null;
  const [hold, every, rest] = s.split('/');
  const n = Number(every);
  if (rest !== undefined || !Number.isInteger(n) || n < 1) {
    throw new Error('must be empty or a duration and a request count, for example 300ms/20');
  }
  return { ms: duration(hold ?? '', 'must be empty or a duration and a request count, for example 300ms/20'), every: n };
}

/**
 * debugAddress accepts an empty address (no debug server) or host:port with
 * a loopback host, as the Go apps' DEBUG_ADDR: a CPU profile shows the
 * program's internals and costs CPU whenever asked for, so it must never be
 * reachable from the network. An empty host (every interface) is refused too.
 */
function debugAddress(s) {
  if (s === '') return null;
  const addr = address(s, 'must be empty or host:port on loopback, for example 127.0.0.1:6060');
  if (!isLoopback(addr.host)) {
    throw new Error('host must be loopback (127.0.0.0/8, ::1 or localhost): the profiler must not be reachable from the network');
  }
  return addr;
}

/** isLoopback reports whether host names only this machine; other names are refused rather than resolved. */
function isLoopback(host) {
  return host.toLowerCase() === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'));
}

function nonEmpty(s) {
  if (s.trim() === '') throw new Error('must not be empty');
  return s;
}

/** address splits host:port; an empty host means every interface. */
function address(s, message = 'must be host:port, for example :8080') {
  const m = /^(?:\[([^\]]*)\]|([^:]*)):(\d{1,5})$/.exec(s);
  if (!m) throw new Error(message);
  const port = Number(m[3]);
  if (port > 65535) throw new Error('port must be a number from 0 to 65535');
  return { host: m[1] ?? m[2], port };
}

function maxConns(s) {
  const n = Number(s.trim());
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new Error('must be a whole number from 1 to 1000');
  return n;
}

function logLevel(s) {
  const level = s.trim().toLowerCase();
  if (level === 'warning') return 'warn';
  if (!['debug', 'info', 'warn', 'error'].includes(level)) throw new Error('must be one of debug, info, warn, error');
  return level;
}

function authSecret(s) {
  const n = Buffer.byteLength(s);
  if (n < 16) throw new Error(`must be at least 16 bytes, got ${n}`);
  return s;
}

function requestTimeout(s) {
  const ms = duration(s, `must be a positive duration up to 25s, such as 5s or 500ms`);
  if (ms > MAX_REQUEST_TIMEOUT_MS) throw new Error('must be a positive duration up to 25s, such as 5s or 500ms');
  return ms;
}

const UNIT_MS = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** duration parses Go's duration syntax ("1h30m", "500ms") into milliseconds. */
export function duration(s, message) {
  const text = s.trim();
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let ms = 0;
  let end = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    ms += Number(m[1]) * UNIT_MS[m[2]];
    end = re.lastIndex;
  }
  if (text === '' || end !== text.length || !(ms > 0)) throw new Error(message);
  return ms;
}
