// The trpc kind's contract, node-base's (test-kit/trpc-contract.js), kept
// by the router on tRPC's standalone adapter; and what this app's own
// listener answers outside /trpc/.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startSession } from '@crudbench/node-base/test-kit/app.js';
import { describeTRPCContract, refused } from '@crudbench/node-base/test-kit/trpc-contract.js';
import { startApp } from './start.js';

describeTRPCContract('trpc', { startApp });

describe('trpc outside /trpc/', () => {
  let app;
  startSession(startApp, { onStart: (session) => ({ app } = session) });

  test('a path outside /trpc/: NOT_FOUND in tRPC error envelope', async () => {
    const res = await fetch(`${app.url}/api/persons/1`);
    refused({ status: res.status, headers: res.headers, body: await res.json() }, 404, 'NOT_FOUND');
  });

  test('METRICS_ADDR serves the process figures the bench reads', async () => {
    const started = await startApp({ METRICS_ADDR: '127.0.0.1:0' });
    try {
      const addr = started.logs.find((l) => l.msg === 'listening').metrics_addr;
      const text = await (await fetch(`http://127.0.0.1${addr}/metrics`)).text();
      for (const metric of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'pgxpool_acquire_count']) {
        assert.match(text, new RegExp(`^${metric}`, 'm'), metric);
      }
    } finally {
      assert.equal(await started.stop(), 0);
    }
  });
});
