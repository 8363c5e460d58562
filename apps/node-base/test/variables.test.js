import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inexactNumbers, noteVariables, parseRequestBody, parseVariables } from '../src/graphql/variables.js';

test('the numbers not written as int64s in digits are noted with their paths', () => {
  const body = parseRequestBody(
    '{"query":"{ a(x: 1.5) }","variables":{"n":1e3,"m":-7,"in":{"a":[1,2.50,{"b":9223372036854775808}],"c":9223372036854775807},"s":"1.0 \\" 2e3"}}',
  );
  assert.deepEqual(inexactNumbers(body.variables), [
    { path: ['n'], text: '1e3' },
    { path: ['in', 'a', 1], text: '2.50' },
    { path: ['in', 'a', 2, 'b'], text: '9223372036854775808' },
  ]);
  assert.equal(body.variables.n, 1000);
});

test('a GET variables parameter is read as the body is', () => {
  const v = parseVariables('{ "x" : [ [ ], { } , -9223372036854775809 ], "y\\u0041": 1E+3 }');
  assert.deepEqual(inexactNumbers(v), [
    { path: ['x', 2], text: '-9223372036854775809' },
    { path: ['yA'], text: '1E+3' },
  ]);
});

test('variables written in digits, and bodies without variables, note nothing', () => {
  assert.deepEqual(inexactNumbers(parseRequestBody('{"query":"{ a }","variables":{"n":1000,"s":"1e3"}}').variables), []);
  assert.deepEqual(inexactNumbers(parseRequestBody('{"query":"{ a(x: 1e3) }"}').variables), []);
  assert.deepEqual(inexactNumbers(parseRequestBody('{"query":"{ a }","extensions":{"n":1e3},"variables":{}}').variables), []);
});

test('a body given as the bytes it was read from is noted as its text', () => {
  const text = '{"query":"{ a }","variables":{"s":"é","n":[1,1.0]}}';
  const body = JSON.parse(text);
  noteVariables(body.variables, Buffer.from(text), 'variables');
  assert.deepEqual(inexactNumbers(body.variables), [{ path: ['n', 1], text: '1.0' }]);
});

test('a deeply nested body is scanned without recursion', () => {
  const v = parseVariables(`{"x":${'['.repeat(100000)}1.5${']'.repeat(100000)}}`);
  assert.equal(inexactNumbers(v)[0].text, '1.5');
  assert.equal(inexactNumbers(v)[0].path.length, 100001);
  const none = parseVariables(`{"x":${'['.repeat(100000)}"1.5"${']'.repeat(100000)}}`);
  assert.deepEqual(inexactNumbers(none), []);
});

test('text that is no JSON throws as JSON.parse does', () => {
  assert.throws(() => parseRequestBody('{"variables":'), SyntaxError);
});
