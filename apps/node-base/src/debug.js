// The debug server: what the Go apps' admin address (DEBUG_ADDR) is to
// pprof, this is to V8's CPU profiler, so that the bench can ask a running
// Node app where its CPU goes (bench/cpuprof reads the answer). It serves on
// a loopback address only (config.js refuses any other) and never on the
// app's public port: a profile shows the program's internals and costs CPU
// whenever someone asks for one.
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** PROFILE_PATH is where the CPU profile is served. */
export const PROFILE_PATH = '/debug/v8/profile';

/**
 * SAMPLING_INTERVAL_US is V8's sampling interval: 10 ms, Go's profiling
 * rate (100 Hz), so that a profile costs a Node app about what it costs a
 * Go app, and their CPU per request stays comparable with -profile-cpu on.
 */
export const SAMPLING_INTERVAL_US = 10_000;

/** MAX_SECONDS bounds a profile's length; DEFAULT_SECONDS is pprof's default. */
export const MAX_SECONDS = 3600;
const DEFAULT_SECONDS = 30;

/**
 * serveDebug serves, on addr, GET /debug/v8/profile?seconds=N: V8's CPU
 * profile of this process's main thread (where all of the app's JavaScript
 * runs) over N whole seconds, 30 by default, as JSON in the .cpuprofile
 * format that Chrome DevTools and `node --cpu-prof` use. One profile at a
 * time: V8 has one profiler per thread, so a second request while one runs
 * gets 409. Seconds that are not a whole number from 1 to MAX_SECONDS get
 * 400. A client that goes away ends its profile early.
 *
 * It resolves to the listening server; close() on it ends a profile in
 * progress at once, so that a profile cannot hold up the app's shutdown.
 */
export function serveDebug(addr) {
  let busy = false;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://debug');
    if (url.pathname !== PROFILE_PATH) return plain(res, 404, '404 page not found');
    if (req.method !== 'GET') return plain(res, 405, 'method not allowed: use GET', { Allow: 'GET' });
    const seconds = parseSeconds(url.searchParams.get('seconds'));
    if (seconds === null) return plain(res, 400, `seconds must be a whole number from 1 to ${MAX_SECONDS}`);
    if (busy) return plain(res, 409, 'a CPU profile is already being taken: one at a time');
    busy = true;
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    try {
      const profile = await cpuProfile(seconds * 1000, gone.signal);
      if (gone.signal.aborted) return;
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Disposition': 'attachment; filename="profile.cpuprofile"',
      });
      res.end(JSON.stringify(profile));
    } catch (err) {
      if (!res.headersSent) plain(res, 500, `could not take a CPU profile: ${err.message}`);
    } finally {
      busy = false;
    }
  });
  const close = server.close.bind(server);
  server.close = (callback) => {
    close(callback);
    server.closeAllConnections();
    return server;
  };
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(addr.port, addr.host || undefined, () => resolve(server));
  });
}

/**
 * cpuProfile profiles this thread for ms milliseconds, or until signal
 * aborts, through an in-process inspector session (no --inspect port is
 * opened), and returns V8's profile.
 */
export async function cpuProfile(ms, signal) {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await session.post('Profiler.start');
    // A timer counts from the loop's cached time, which may be older than
    // the profile's start on a busy machine: sleep until the clock says
    // ms have passed since, so the profile lasts at least what was asked.
    const started = performance.now();
    for (let left = ms; left > 0 && !signal?.aborted; left = ms - (performance.now() - started)) {
      await sleep(Math.ceil(left), undefined, { signal }).catch((err) => {
        if (err.name !== 'AbortError') throw err;
      });
    }
    const { profile } = await session.post('Profiler.stop');
    return profile;
  } finally {
    session.disconnect();
  }
}

/** parseSeconds reads the seconds parameter; null when it is not valid. */
function parseSeconds(raw) {
  if (raw === null || raw === '') return DEFAULT_SECONDS;
  if (!/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= MAX_SECONDS ? n : null;
}

function plain(res, status, text, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }).end(`${text}\n`);
}
