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
