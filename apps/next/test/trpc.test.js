// The trpc kind's contract, node-base's (test-kit/trpc-contract.js), kept
// by the router through tRPC's fetch adapter in a route handler; and the
// person it answers is the one the REST route answers, in this process.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { devToken, startSession } from '@crudbench/node-base/test-kit/app.js';
import { describeTRPCContract, trpcCall } from '@crudbench/node-base/test-kit/trpc-contract.js';
import { startApp } from './start.js';

describeTRPCContract('next-trpc', { startApp });

describe('next-trpc beside next-rest', () => {
  let app;
  startSession(startApp, { onStart: (session) => ({ app } = session) });

  test('person.byId answers the person the REST route answers', async () => {
    const token = devToken('viewer');
    const res = await trpcCall(app.url, 'person.byId', { id: 1 }, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const rest = await (await fetch(`${app.url}/api/persons/1`, { headers: { Authorization: `Bearer ${token}` } })).json();
    assert.deepEqual(res.body.result.data, rest);
  });
});
