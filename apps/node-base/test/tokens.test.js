import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { bearerToken, createTokens } from '../src/tokens.js';

const SECRET = 'a-test-secret-of-enough-bytes';

// goToken signs claims the way the Go apps' golang-jwt does (member order
// and all), without this app's JWT library: the format is the contract.
function goToken(claims, secret = SECRET) {
  const part = (v) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

const now = () => Math.floor(Date.now() / 1000);
const claims = (extra = {}) => ({ name: 'editor', role: 'editor', iss: 'crudbench', sub: '2', exp: now() + 60, iat: now(), ...extra });

test('a token issued by the Go apps verifies', () => {
  assert.deepEqual(createTokens(SECRET, 3600_000).verify(goToken(claims())), { userId: 2, username: 'editor', role: 'editor' });
});

test('a token issued here carries the Go apps claims', () => {
  const { token, expiresAt } = createTokens(SECRET, 3600_000).issue({ id: 2, username: 'editor', role: 'editor' });
  const [header, payload, signature] = token.split('.');
  assert.deepEqual(JSON.parse(Buffer.from(header, 'base64url')), { alg: 'HS256', typ: 'JWT' });
  const c = JSON.parse(Buffer.from(payload, 'base64url'));
  assert.deepEqual({ ...c, exp: 0, iat: 0 }, { name: 'editor', role: 'editor', iss: 'crudbench', sub: '2', exp: 0, iat: 0 });
  assert.equal(c.exp - c.iat, 3600);
  assert.equal(expiresAt.getTime(), c.exp * 1000);
  assert.equal(signature, createHmac('sha256', SECRET).update(`${header}.${payload}`).digest('base64url'));
});

test('refused tokens', async (t) => {
  const tokens = createTokens(SECRET, 3600_000);
  const cases = {
    'another secret': goToken(claims(), 'another-secret-of-16-bytes'),
    'another issuer': goToken(claims({ iss: 'someone' })),
    'no expiry': goToken(claims({ exp: undefined })),
    'unknown role': goToken(claims({ role: 'admin' })),
    'subject not a user id': goToken(claims({ sub: 'editor' })),
    'issued in the future': goToken(claims({ iat: now() + 600 })),
    'alg none': `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims())).toString('base64url')}.`,
  };
  for (const [name, token] of Object.entries(cases)) {
    await t.test(name, () => assert.throws(() => tokens.verify(token), { name: 'Error' }));
  }
  await t.test('expired, and says so', () => {
    assert.throws(() => tokens.verify(goToken(claims({ exp: now() - 60, iat: now() - 120 }))), { expired: true });
  });
});

test('bearerToken reads the Bearer scheme only, in any case, the token trimmed', () => {
  for (const [header, want] of [
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER  abc ', 'abc'],
    ['Bearer', ''],
    ['Bearer ', ''],
    ['Basic abc', ''],
    ['Bearer\tabc', ''],
    ['', ''],
  ]) {
    assert.equal(bearerToken(header), want, JSON.stringify(header));
  }
});
