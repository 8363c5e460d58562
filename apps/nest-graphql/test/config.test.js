import assert from 'node:assert/strict';
import { test } from 'node:test';
import { starterOf } from './start.js';

test('a NEST_GRAPHQL_DRIVER other than apollo or mercurius stops the app before it listens', async () => {
  await assert.rejects(starterOf('yoga')(), /exited with 1 before listening/);
});
