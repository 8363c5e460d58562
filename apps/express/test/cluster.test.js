import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, startApp } from './start.js';

test('express-cluster serves from its workers, sums their metrics and stops on SIGTERM', async () => {
  const app = await startApp({ WORKERS: '2', METRICS_ADDR: '127.0.0.1:0' }, 'cluster.js');
  try {
    const token = await login(app.url);
    const res = await fetch(`${app.url}/api/persons/1`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).appointments.length, 12);
    // Wait for the second worker too: each logs "listening".
    while (app.logs.filter((l) => l.msg === 'listening').length < 2) await new Promise((r) => setTimeout(r, 100));
    const primary = app.logs.find((l) => l.msg === 'cluster started');
    assert.equal(primary.workers, 2);
    const metrics = await (await fetch(`http://127.0.0.1${primary.metrics_addr}/metrics`)).text();
    const rss = Number(/^process_resident_memory_bytes (\S+)$/m.exec(metrics)[1]);
    assert.ok(rss > 2 * 20e6, `RSS ${rss} is the two workers' sum`);
  } finally {
    assert.equal(await app.stop(), 0);
  }
  assert.equal(app.logs.filter((l) => l.msg === 'stopped').length, 2, 'every worker shut down gracefully');
});
