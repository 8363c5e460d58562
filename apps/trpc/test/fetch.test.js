import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { loadConfig } from '@crudbench/node-base/config.js';
import { openPool } from '@crudbench/node-base/store/pool.js';
import { personStore } from '@crudbench/node-base/store/persons.js';
import { userStore } from '@crudbench/node-base/store/users.js';
import { vacancyStore } from '@crudbench/node-base/store/vacancies.js';
import { createTokens } from '@crudbench/node-base/tokens.js';
import { appRouter, contextOf } from 'crudbench-trpc/router';
import { DATABASE_URL, devToken } from './start.js';

// The router is the package's export, with no adapter of its own: the
// same procedures mounted through tRPC's fetch adapter, as a Next.js
// route handler mounts them, over node-base's stores.

describe('the router through the fetch adapter', () => {
  let pool;
  let handle;

  before(() => {
    const config = loadConfig({ DATABASE_URL, REQUEST_TIMEOUT: '5s' }, ':0');
    pool = openPool(config, 'crudbench-trpc-fetch-test');
    const deps = {
      logger: { error() {}, warn() {} },
      persons: personStore(pool),
      vacancies: vacancyStore(pool),
      users: userStore(pool),
      tokens: createTokens(config.authSecret, config.tokenTtlMs),
      requestTimeoutMs: config.requestTimeoutMs,
    };
    handle = (req) =>
      fetchRequestHandler({
        endpoint: '/trpc',
        req,
        router: appRouter,
        allowBatching: false,
        createContext: ({ req }) => contextOf(deps, req.headers.get('authorization'), performance.now()),
      });
  });

  after(() => pool?.end());

  test('person.byId answers the showcase person, nested, in the same envelope', async () => {
    const input = encodeURIComponent(JSON.stringify({ id: 1 }));
    const res = await handle(
      new Request(`http://next.example/trpc/person.byId?input=${input}`, { headers: { Authorization: `Bearer ${devToken('viewer')}` } }),
    );
    assert.equal(res.status, 200);
    const p = (await res.json()).result.data;
    assert.equal(`${p.firstName} ${p.lastName}`, 'Ada Lovelace');
    assert.equal(p.appointments.flatMap((a) => a.stipends).length, 36);
  });

  test('its refusals are the same: a viewer writing is FORBIDDEN, bad input BAD_REQUEST with fields', async () => {
    const post = (procedure, body, role) =>
      handle(
        new Request(`http://next.example/trpc/${procedure}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${devToken(role)}` },
          body: JSON.stringify(body),
        }),
      );
    const forbidden = await post('vacancy.delete', { id: 1 }, 'viewer');
    assert.equal(forbidden.status, 403);
    assert.equal((await forbidden.json()).error.data.code, 'FORBIDDEN');
    const bad = await post('vacancy.update', { id: 0, version: 1 }, 'editor');
    assert.equal(bad.status, 400);
    assert.deepEqual((await bad.json()).error.data.fields, { id: 'must be a positive whole number' });
  });
});
