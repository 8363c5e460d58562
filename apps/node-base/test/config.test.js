import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig, duration } from '../src/config.js';

test('defaults are the Go apps defaults', () => {
  const c = loadConfig({}, ':8084');
  assert.equal(c.dbMaxConns, 20);
  assert.equal(c.tokenTtlMs, 3_600_000);
  assert.equal(c.requestTimeoutMs, 5000);
  assert.deepEqual(c.addr, { host: '', port: 8084 });
  assert.equal(c.metricsAddr, null);
  assert.equal(c.debugAddr, null);
  assert.equal(c.debugPause, null);
});

test('DEBUG_PAUSE is a hold and a request count', () => {
  assert.deepEqual(loadConfig({ DEBUG_PAUSE: '300ms/20' }, ':8084').debugPause, { ms: 300, every: 20 });
  for (const value of ['300ms', '300ms/0', '300ms/1.5', '/20', '300/20', '300ms/20/1']) {
    assert.throws(() => loadConfig({ DEBUG_PAUSE: value }, ':8084'), { message: /DEBUG_PAUSE/ }, value);
  }
});

test('DEBUG_ADDR is loopback only, as for the Go apps', async (t) => {
  for (const [value, want] of [
    ['127.0.0.1:6060', { host: '127.0.0.1', port: 6060 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    ['[::1]:6060', { host: '::1', port: 6060 }],
  ]) {
    await t.test(value, () => assert.deepEqual(loadConfig({ DEBUG_ADDR: value }, ':8084').debugAddr, want));
  }
  for (const [value, message] of [
    [':6060', /DEBUG_ADDR ":6060": host must be loopback/],
    ['0.0.0.0:6060', /host must be loopback/],
    ['10.0.0.5:6060', /host must be loopback/],
    ['example.com:6060', /host must be loopback/],
    ['6060', /DEBUG_ADDR "6060": must be empty or host:port on loopback/],
  ]) {
    await t.test(value, () => assert.throws(() => loadConfig({ DEBUG_ADDR: value }, ':8084'), { message }));
  }
});

test('durations are written as in Go', () => {
  assert.equal(duration('1h30m', ''), 5_400_000);
  assert.equal(duration('500ms', ''), 500);
  assert.equal(duration('2.5s', ''), 2500);
});

test('invalid values name their variable and hide secrets', async (t) => {
  const cases = {
    DB_MAX_CONNS: ['0', /DB_MAX_CONNS "0": must be a whole number from 1 to 1000/],
    ADDR: ['8084', /ADDR "8084": must be host:port/],
    REQUEST_TIMEOUT: ['30s', /REQUEST_TIMEOUT "30s": must be a positive duration up to 25s/],
    TOKEN_TTL: ['-1h', /TOKEN_TTL/],
    LOG_LEVEL: ['loud', /LOG_LEVEL "loud"/],
    AUTH_SECRET: ['short', /^config: AUTH_SECRET: must be at least 16 bytes, got 5$/],
  };
  for (const [name, [value, message]] of Object.entries(cases)) {
    await t.test(name, () => assert.throws(() => loadConfig({ [name]: value }, ':8084'), { message }));
  }
});
