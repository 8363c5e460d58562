import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestError } from '../src/errors.js';
import { PERSON_UPDATE, VACANCY_UPDATE, personPatch, vacancyPatch } from '../src/http/bodies.js';
import { decodeBody } from '../src/http/json.js';

const decode = (shape, body) => decodeBody(Buffer.from(JSON.stringify(body)), shape);

test('an update patch leaves out the version and clears what a null may clear', () => {
  const body = decode(VACANCY_UPDATE, { version: 3, title: 'Nurse', closesOn: null, filledBy: null });
  assert.deepEqual(vacancyPatch(body), { title: 'Nurse', closesOn: null, filledBy: null });
  assert.deepEqual(personPatch(decode(PERSON_UPDATE, { version: 3, phone: '+1 555' })), { phone: '+1 555' });
});

test('a null for a member that cannot be cleared is a 400 naming it', () => {
  for (const [patch, shape, body, field] of [
    [vacancyPatch, VACANCY_UPDATE, { version: 1, title: null, closesOn: null }, 'title'],
    [personPatch, PERSON_UPDATE, { version: 1, phone: null }, 'phone'],
  ]) {
    assert.throws(
      () => patch(decode(shape, body)),
      (err) =>
        err instanceof RequestError &&
        err.status === 400 &&
        err.fields[field] === 'must not be null' &&
        Object.keys(err.fields).length === 1,
    );
  }
});
