// What refusing each hostile document costs the app, per size, through
// real HTTP: the Go app's BenchmarkHostileDocuments for Yoga. It starts the
// app as its own process (as the tests do: DATABASE_URL must name a
// migrated, seeded database) and prints, for each shape at 1, 4 and 16 KiB
// and for the 22-level self-doubling fragment, the wall time and
// the app's CPU per document. The figures should grow at most in
// proportion to the size; each should be a few milliseconds.
//
//   DATABASE_URL=… npm run bench:hostile
import { HOSTILE_SHAPES, selfDoubling } from '@crudbench/node-base/graphql/hostile.js';
import { devToken, startApp } from '../test/start.js';

const SIZES = [1 << 10, 4 << 10, 16 << 10];
// Each document is sent for at least this long, and at least MIN_DOCS times.
const MIN_MS = 500;
const MIN_DOCS = 20;

const app = await startApp({ METRICS_ADDR: '127.0.0.1:0' });
const metricsAddr = app.logs.find((l) => l.msg === 'listening').metrics_addr;
const token = devToken('viewer');

/** cpuSeconds is the app's process_cpu_seconds_total. */
async function cpuSeconds() {
  const text = await (await fetch(`http://127.0.0.1${metricsAddr}/metrics`)).text();
  return Number(/^process_cpu_seconds_total (\S+)$/m.exec(text)[1]);
}

/** send posts query once and checks that it is refused without data. */
async function send(query) {
  const res = await fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  });
  const body = await res.json();
  if (res.status !== 200 || !body.errors?.length || body.data) {
    throw new Error(`${query.length} bytes: HTTP ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  return body.errors[0].extensions.code;
}

/**
 * measure sends doc again and again, each time with a numbering comment
 * (a document Yoga has cached would not be analysed again), and returns
 * the wall and CPU milliseconds per document and the refusal's code.
 */
async function measure(doc) {
  const code = await send(`${doc} #warm`);
  const cpu = await cpuSeconds();
  const started = performance.now();
  let n = 0;
  while (n < MIN_DOCS || performance.now() - started < MIN_MS) await send(`${doc} #${n++}`);
  const wallMs = (performance.now() - started) / n;
  const cpuMs = (((await cpuSeconds()) - cpu) * 1000) / n;
  return { wallMs, cpuMs, code, n };
}

const cases = [];
for (const shape of HOSTILE_SHAPES) {
  // Room for the numbering comment, as the Go benchmark leaves it.
  for (const size of SIZES) cases.push({ name: `${shape.name}/${size >> 10}KiB`, doc: shape.write(size - 10) });
}
cases.push({ name: 'self-doubling, 22 levels', doc: selfDoubling(22) });

try {
  console.log(
    `${'document'.padEnd(28)} ${'bytes'.padStart(6)} ${'wall ms/doc'.padStart(12)} ${'app cpu-ms/doc'.padStart(15)}  refused with`,
  );
  for (const { name, doc } of cases) {
    const { wallMs, cpuMs, code } = await measure(doc);
    console.log(
      `${name.padEnd(28)} ${String(doc.length).padStart(6)} ${wallMs.toFixed(2).padStart(12)} ${cpuMs.toFixed(2).padStart(15)}  ${code}`,
    );
  }
} finally {
  await app.stop();
}
