// The Go rest app's contract, node-base's (test-kit/rest-contract.js),
// kept on both of Nest's platforms: reads, writes, refusals and outages;
// and what only this app reads from its environment.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { describeRESTContract } from '@crudbench/node-base/test-kit/rest-contract.js';
import { DATABASE_URL, platforms } from './start.js';

for (const [name, startApp] of platforms) describeRESTContract(name, { startApp });

test('an unknown NEST_PLATFORM stops the app, naming the variable', async () => {
  const child = spawn(process.execPath, [new URL('../dist/main.js', import.meta.url).pathname], {
    env: { PATH: process.env.PATH, DATABASE_URL, ADDR: '127.0.0.1:0', NEST_PLATFORM: 'koa' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = await once(child, 'exit');
  assert.equal(code, 1);
  assert.match(stderr, /^config: NEST_PLATFORM "koa": must be express or fastify$/m);
});
