// The Go rest app's contract, node-base's (test-kit/rest-contract.js),
// kept by the route handlers under /api/.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startSession } from '@crudbench/node-base/test-kit/app.js';
import { describeRESTContract } from '@crudbench/node-base/test-kit/rest-contract.js';
import { devToken, startApp } from './start.js';

describeRESTContract('next-rest', { startApp });

describe('next-rest reads the query as sent', () => {
  let app;
  startSession(startApp, { onStart: (session) => ({ app } = session) });

  test('a query value whose escapes are not UTF-8 is 400 naming the parameter, not a search for U+FFFD', async () => {
    const res = await fetch(`${app.url}/api/persons?q=%ff`, { headers: { Authorization: `Bearer ${devToken('viewer')}` } });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
    assert.deepEqual((await res.json()).fields, { q: 'must be valid UTF-8' });
  });
});
