// The build's output: two variants, each an index.html naming its
// content-hashed assets, differing only in the data layer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildVariant, variants } from '../build.js';

const out = await mkdtemp(path.join(os.tmpdir(), 'crudbench-web-'));
test.after(() => rm(out, { recursive: true, force: true }));

const built = {};
for (const name of Object.keys(variants)) built[name] = await buildVariant(name, out);

test('every variant has an index.html naming its hashed assets', async () => {
  for (const [name, { js, css }] of Object.entries(built)) {
    assert.match(js, /^assets\/app-[A-Z0-9]{8}\.js$/, name);
    assert.match(css, /^assets\/app-[A-Z0-9]{8}\.css$/, name);
    const html = await readFile(path.join(out, name, 'index.html'), 'utf8');
    assert.ok(html.includes(`<script src="/${js}" defer></script>`), `${name}: index.html names ${js}`);
    assert.ok(html.includes(`href="/${css}"`), `${name}: index.html names ${css}`);
    assert.deepEqual((await readdir(path.join(out, name, 'assets'))).sort(), [js, css].map((p) => path.basename(p)).sort(), name);
  }
});

test('the variants differ only in the data layer', async () => {
  const rest = await readFile(path.join(out, 'web-rest', built['web-rest'].js), 'utf8');
  const graphql = await readFile(path.join(out, 'web-graphql', built['web-graphql'].js), 'utf8');
  assert.equal(built['web-rest'].css, built['web-graphql'].css, 'one style sheet for both');
  assert.notEqual(built['web-rest'].js, built['web-graphql'].js);
  for (const [name, js] of Object.entries({ 'web-rest': rest, 'web-graphql': graphql })) {
    assert.ok(js.includes('elementtiming'), `${name} renders the marker`);
    assert.ok(js.includes('list-end'), `${name} renders the marker's element`);
  }
  assert.ok(rest.includes('/api/persons/'), 'web-rest fetches the REST resources');
  assert.ok(!rest.includes('/graphql'), 'web-rest has no GraphQL');
  assert.ok(graphql.includes('/graphql') && graphql.includes('PersonDetail'), 'web-graphql queries the GraphQL endpoint');
  assert.ok(!graphql.includes('/api/persons/'), 'web-graphql has no REST');
});

test('a build names its JavaScript by its content', async () => {
  const again = await buildVariant('web-rest', path.join(out, 'again'));
  assert.equal(again.js, built['web-rest'].js, 'the same sources give the same name');
});
