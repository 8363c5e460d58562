import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

// These modules are the express app's, copied so that each app installs and
// deploys on its own folder alone. This test keeps the copies from drifting:
// change both, or neither.
const SHARED = [
  'config.js', 'errors.js', 'tokens.js',
  'store/cursor.js', 'store/personWrites.js', 'store/pool.js', 'store/users.js', 'store/vacancies.js', 'store/validate.js',
];

for (const file of SHARED) {
  test(`src/${file} is the express app's`, () => {
    const ours = readFileSync(new URL(`../src/${file}`, import.meta.url), 'utf8');
    const theirs = readFileSync(new URL(`../../express/src/${file}`, import.meta.url), 'utf8');
    assert.ok(ours === theirs, `src/${file} differs from apps/express/src/${file}`);
  });
}
