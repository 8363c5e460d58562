import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { startApp } from './start.js';

const HEALTHCHECK = new URL('../src/healthcheck.js', import.meta.url).pathname;

/** healthcheck runs src/healthcheck.js, the container's health check, with ADDR, and resolves with its exit code. */
async function healthcheck(addr) {
  try {
    await promisify(execFile)(process.execPath, [HEALTHCHECK], { env: { PATH: process.env.PATH, ADDR: addr } });
    return 0;
  } catch (err) {
    return err.code;
  }
}

let app;
before(async () => {
  app = await startApp();
});
after(async () => {
  assert.equal(await app?.stop(), 0, 'the app exits 0 on SIGTERM');
});

test('the health check passes while the app serves and its database answers', async () => {
  assert.equal(await healthcheck(app.addr), 0);
});

test('the health check on every interface dials loopback, as the container gives it ADDR=:port', async () => {
  const port = app.addr.slice(app.addr.lastIndexOf(':'));
  assert.equal(await healthcheck(port), 0);
});

test('the health check fails when nothing listens on ADDR', async () => {
  assert.equal(await healthcheck('127.0.0.1:1'), 1);
});

test('the health check fails on an ADDR that is not host:port', async () => {
  assert.notEqual(await healthcheck('8091'), 0);
});
