// slow-clients tries a running app as slow clients would: it opens slow
// heads (a request head written one byte every 500 ms) and slow bodies (a
// head at once, then its body one byte every 500 ms), measures when the app
// drops each, and meanwhile times a normal client's requests, one after
// another. It prints the figures and exits 1 unless every slow connection
// was dropped within the Go apps' bounds (the read-header timeout, 5 s;
// the request deadline) and a second, and the normal client's p99 stayed
// under a second.
//
//	node scripts/slow-clients.js URL [--heads 200] [--bodies 50] [--body-path /api/login]
//	  [--normal-path /readyz] [--request-timeout 5s]
//
// Start the app first, e.g. in apps/express: DATABASE_URL=… node src/main.js.
import http from 'node:http';
import net from 'node:net';
import { parseArgs } from 'node:util';

const READ_HEADER_TIMEOUT_MS = 5000; // the Go apps' ReadHeaderTimeout
const LATE_MS = 1000;
const BYTE_EVERY_MS = 500;
const GIVE_UP_MS = 60_000;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    heads: { type: 'string', default: '200' },
    bodies: { type: 'string', default: '50' },
    'body-path': { type: 'string', default: '/api/login' },
    'normal-path': { type: 'string', default: '/readyz' },
    'request-timeout': { type: 'string', default: '5s' },
  },
});
if (positionals.length !== 1) {
  console.error(
    'usage: node scripts/slow-clients.js URL [--heads N] [--bodies N] [--body-path P] [--normal-path P] [--request-timeout 5s]',
  );
  process.exit(2);
}
const url = new URL(positionals[0]);
const requestTimeoutMs = durationMs(values['request-timeout']);

const start = performance.now();
const heads = Array.from({ length: Number(values.heads) }, () =>
  slowConnection(`GET /healthz HTTP/1.1\r\nHost: ${url.host}\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`, 0),
);
const bodyHead = `POST ${values['body-path']} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n`;
const bodies = Array.from({ length: Number(values.bodies) }, () => slowConnection(`${bodyHead}{${' '.repeat(9999)}`, bodyHead.length));

const latencies = [];
let errors = 0;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const all = Promise.all([...heads, ...bodies].map((c) => c.dropped));
let done = false;
all.then(() => (done = true));
const giveUp = setTimeout(() => (done = true), GIVE_UP_MS);
while (!done) {
  const sent = performance.now();
  try {
    await get(new URL(values['normal-path'], url), agent);
    latencies.push(performance.now() - sent);
  } catch {
    errors++;
  }
}
clearTimeout(giveUp);
agent.destroy();

const headBound = READ_HEADER_TIMEOUT_MS + LATE_MS;
const bodyBound = requestTimeoutMs + LATE_MS;
const ok = [report('slow heads', heads, headBound), report('slow bodies', bodies, bodyBound)].every(Boolean);
latencies.sort((a, b) => a - b);
const p99 = quantile(latencies, 0.99);
console.log(
  `normal client   ${latencies.length} × GET ${values['normal-path']} in ${seconds(performance.now() - start)}, ${errors} failed: ` +
    `p50 ${ms(quantile(latencies, 0.5))}, p99 ${ms(p99)}, max ${ms(latencies.at(-1))}`,
);
const fast = p99 < 1000 && errors === 0;
console.log(ok && fast ? 'ok: every slow client dropped within the bounds, p99 under 1 s' : 'FAIL');
for (const c of [...heads, ...bodies]) c.socket.destroy();
process.exit(ok && fast ? 0 : 1);

/**
 * slowConnection opens a connection that writes raw[0:at] at once and then
 * one byte every BYTE_EVERY_MS: { socket, dropped, result }, dropped
 * resolving once the app closed it and result then holding the
 * milliseconds from the first byte to the close and the status the app
 * answered, if any.
 */
function slowConnection(raw, at) {
  const conn = { socket: net.connect(Number(url.port || 80), url.hostname), result: null };
  let opened;
  let answer = '';
  let timer;
  conn.dropped = new Promise((resolve) => {
    conn.socket.once('connect', () => {
      opened = performance.now();
      conn.socket.write(raw.slice(0, at + 1));
      let next = at + 1;
      timer = setInterval(() => next < raw.length && conn.socket.write(raw[next++]), BYTE_EVERY_MS);
    });
    conn.socket.on('data', (d) => (answer += d));
    conn.socket.on('error', () => {});
    conn.socket.once('close', () => {
      clearInterval(timer);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 'no answer';
      conn.result = { ms: opened === undefined ? 0 : performance.now() - opened, status };
      resolve();
    });
  });
  return conn;
}

/** report prints what became of conns and reports whether the app dropped every one within bound. */
function report(what, conns, bound) {
  const results = conns.map((c) => c.result).filter(Boolean);
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const statuses = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const open = conns.length - results.length;
  const late = times.filter((t) => t > bound).length;
  console.log(
    `${what.padEnd(15)} ${results.length}/${conns.length} dropped after ` +
      `min ${ms(times[0])}, p50 ${ms(quantile(times, 0.5))}, max ${ms(times.at(-1))} ` +
      `(bound ${ms(bound)}: ${late} late, ${open} still open); answers ${JSON.stringify(statuses)}`,
  );
  return open === 0 && late === 0;
}

function get(target, agent) {
  return new Promise((resolve, reject) => {
    const req = http.get(target, { agent, timeout: 10_000 }, (res) => {
      res.resume();
      res.once('end', resolve);
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', reject);
  });
}

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

function durationMs(s) {
  const m = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(s);
  if (!m) throw new Error(`--request-timeout ${s}: want e.g. 5s or 500ms`);
  return Number(m[1]) * (m[2] === 's' ? 1000 : 1);
}

function ms(v) {
  return v === undefined || Number.isNaN(v) ? 'n/a' : `${Math.round(v)} ms`;
}

function seconds(v) {
  return `${(v / 1000).toFixed(1)} s`;
}
