import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MAX_SECONDS, PROFILE_PATH, SAMPLING_INTERVAL_US, serveDebug } from '../src/debug.js';

let server;
let base;
before(async () => {
  server = await serveDebug({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

// spinBusily computes for about 5 ms: the work the profile must see. It
// reads the clock once every thousand steps, so the samples land in its own
// arithmetic rather than in the clock's native code.
function spinBusily() {
  const end = performance.now() + 5;
  let x = 0;
  do {
    for (let i = 0; i < 1000; i++) x += Math.sqrt(x + i);
  } while (performance.now() < end);
  return x;
}

// busyUntil keeps this thread busy in spinBusily, in slices that leave the
// event loop free to serve the profile, until done settles.
function busyUntil(done) {
  let settled = false;
  done.finally(() => {
    settled = true;
  });
  const slice = () => {
    if (settled) return;
    spinBusily();
    setImmediate(slice);
  };
  slice();
  return done;
}

// enoughSamples is how many samples a profile needs before it can show
// where the thread spent its time. On a loaded machine the thread (and
// V8's sampler) may barely run in a second of wall time, so the test takes
// profiles until one holds this many, rather than trusting one second to.
const enoughSamples = 20;

test('a profile shows where the main thread spent its time', async () => {
  let profile;
  let micros;
  const sizes = [];
  for (let attempt = 0; attempt < 10; attempt++) {
    const res = await busyUntil(fetch(`${base}${PROFILE_PATH}?seconds=1`));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    profile = await res.json();
    for (const field of ['nodes', 'samples', 'timeDeltas', 'startTime', 'endTime']) assert.ok(field in profile, `no ${field}`);
    assert.equal(profile.samples.length, profile.timeDeltas.length);
    micros = profile.endTime - profile.startTime;
    assert.ok(micros >= 1e6 && micros < 5e6, `the profile lasts ${micros} µs, want about a second`);
    // The samples are 10 ms apart, give or take a busy machine.
    assert.ok(profile.samples.length <= (2 * micros) / SAMPLING_INTERVAL_US, `${profile.samples.length} samples in ${micros} µs`);
    sizes.push(profile.samples.length);
    if (profile.samples.length >= enoughSamples) break;
  }
  assert.ok(
    profile.samples.length >= enoughSamples,
    `profiles of ${sizes.join(', ')} samples: the thread never ran long enough to be seen`,
  );

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const seen = () => {
    const counts = new Map();
    for (const id of profile.samples) {
      const name = byId.get(id).callFrame.functionName || '(anonymous)';
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    return [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([n, c]) => `${n} ${c}`)
      .join(', ');
  };
  // The busy work is spinBusily and slice, which calls it. The optimizer
  // may inline spinBusily into slice, and then V8 puts some or all of its
  // samples on slice's frame: either name, in this file, is the work.
  const work = new Set(['spinBusily', 'slice']);
  const busy = profile.nodes.filter((n) => work.has(n.callFrame.functionName) && /debug\.test\.js$/.test(n.callFrame.url));
  assert.ok(busy.length > 0, `neither spinBusily nor slice is in the profile of ${profile.samples.length} samples (${seen()})`);
  // The work's samples are its own and those of what it calls
  // (performance.now, Math.sqrt): the nodes under it in V8's call tree.
  const under = new Set();
  const add = (id) => {
    under.add(id);
    for (const c of byId.get(id).children ?? []) add(c);
  };
  for (const n of busy) add(n.id);
  const hits = profile.samples.filter((id) => under.has(id)).length;
  assert.ok(
    hits >= profile.samples.length / 4,
    `the busy work has ${hits} of ${profile.samples.length} samples, want a good part (${seen()})`,
  );
});

test('one profile at a time', async () => {
  const held = new Promise((resolve) => server.once('request', resolve));
  const first = fetch(`${base}${PROFILE_PATH}?seconds=1`);
  // The server takes the lock as it receives the request, before it awaits.
  await held;
  const second = await fetch(`${base}${PROFILE_PATH}?seconds=1`);
  assert.equal(second.status, 409);
  assert.match(await second.text(), /already being taken/);
  assert.equal((await first).status, 200);
  // The lock is released: the next profile is served.
  const next = await fetch(`${base}${PROFILE_PATH}?seconds=1`);
  assert.equal(next.status, 200);
  await next.arrayBuffer();
});

test('bad requests are refused', async (t) => {
  const cases = [
    ['seconds=0', 400, /whole number from 1 to 3600/],
    ['seconds=abc', 400, /whole number/],
    ['seconds=1.5', 400, /whole number/],
    ['seconds=-1', 400, /whole number/],
    [`seconds=${MAX_SECONDS + 1}`, 400, /whole number/],
  ];
  for (const [query, status, body] of cases) {
    await t.test(query, async () => {
      const res = await fetch(`${base}${PROFILE_PATH}?${query}`);
      assert.equal(res.status, status);
      assert.match(await res.text(), body);
    });
  }
  await t.test('another path', async () => {
    const res = await fetch(`${base}/debug/pprof/profile`);
    assert.equal(res.status, 404);
    await res.arrayBuffer();
  });
  await t.test('POST', async () => {
    const res = await fetch(`${base}${PROFILE_PATH}?seconds=1`, { method: 'POST' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET');
    await res.arrayBuffer();
  });
});

test('close ends a profile in progress', async () => {
  const own = await serveDebug({ host: '127.0.0.1', port: 0 });
  const started = performance.now();
  const res = fetch(`http://127.0.0.1:${own.address().port}${PROFILE_PATH}?seconds=60`);
  // Close once the server holds the request (the connection is open).
  await new Promise((resolve) => own.once('request', resolve));
  await new Promise((resolve) => own.close(resolve));
  await assert.rejects(res);
  assert.ok(performance.now() - started < 30_000, 'close waited for the profile');
});
