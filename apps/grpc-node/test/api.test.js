import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import grpc from '@grpc/grpc-js';
import { startSession } from '@crudbench/node-base/test-kit/app.js';
import { bearer, call, details, devToken, login, startApp } from './start.js';

const { status: Code } = grpc;

let app;
let editor;
let viewer;
let db;
startSession(startApp, {
  env: { METRICS_ADDR: '127.0.0.1:0' },
  login,
  onStart: (session) => {
    ({ app, db } = session);
    editor = bearer(session.editor);
    viewer = bearer(session.viewer);
  },
});

/** wantInvalid checks an INVALID_ARGUMENT whose BadRequest names exactly fields. */
function wantInvalid(error, fields) {
  assert.equal(error?.code, Code.INVALID_ARGUMENT, `${error?.code} ${error?.details}`);
  const [d] = details(error);
  assert.equal(d?.type, 'google.rpc.BadRequest');
  assert.deepEqual(
    d.value.field_violations.map((v) => v.field),
    fields,
  );
}

const newVacancy = () => ({
  title: 'Research assistant',
  department: 'Physics',
  location: 'Oxford',
  employment_type: 1, // EMPLOYMENT_TYPE_FULL_TIME
  salary_min_cents: 3_000_000,
  salary_max_cents: 4_000_000,
  status: 1, // VACANCY_STATUS_DRAFT
  opens_on: '2026-01-01',
});

describe('reads', () => {
  test('GetPerson is the showcase person with every appointment, stipend and funding, as the database has them', async () => {
    const { response, error } = await call(app.staff, 'GetPerson', { id: 1 }, { metadata: viewer });
    assert.equal(error, undefined);
    assert.equal(response.person.first_name, 'Ada');
    assert.equal(response.person.status, 1); // PERSON_STATUS_ACTIVE
    const want = await db.query('SELECT count(*)::int AS n FROM appointment WHERE person_id = 1');
    assert.equal(response.appointments.length, want.rows[0].n);
    const stipends = await db.query(
      'SELECT count(*)::int AS n FROM stipend JOIN appointment a ON a.id = appointment_id WHERE a.person_id = 1',
    );
    assert.equal(
      response.appointments.reduce((n, a) => n + a.stipends.length, 0),
      stipends.rows[0].n,
    );
    const s = response.appointments[0].stipends[0];
    assert.ok(s.payer.code && s.payer.kind > 0 && Number(s.amount_cents) > 0, JSON.stringify(s));
    assert.ok(Number(response.person.created_at.seconds) > 1.7e9);
  });

  test('GetPerson of no such person is NOT_FOUND, an id past 2^53 too', async () => {
    for (const id of [999999, '9223372036854775807']) {
      const { error } = await call(app.staff, 'GetPerson', { id }, { metadata: viewer });
      assert.equal(error?.code, Code.NOT_FOUND, `${id}: ${error?.details}`);
    }
  });

  test('ListPersons pages by name; the next page follows on; a read mask trims the answer', async () => {
    const first = await call(app.staff, 'ListPersons', { page_size: 2 }, { metadata: viewer });
    assert.equal(first.response.persons.length, 2);
    assert.ok(first.response.next_page_token);
    const next = await call(app.staff, 'ListPersons', { page_size: 2, page_token: first.response.next_page_token }, { metadata: viewer });
    assert.notEqual(next.response.persons[0].id, first.response.persons[0].id);
    const slim = await call(
      app.staff,
      'ListPersons',
      { page_size: 3, read_mask: { paths: ['id', 'first_name', 'last_name'] } },
      { metadata: viewer },
    );
    for (const p of slim.response.persons) assert.deepEqual(Object.keys(p).sort(), ['first_name', 'id', 'last_name']);
    const all = await call(app.staff, 'ListPersons', {}, { metadata: viewer });
    assert.equal(all.response.persons.length, 50, 'page_size 0 is 50');
    const found = await call(app.staff, 'ListPersons', { query: 'Lovelace' }, { metadata: viewer });
    assert.ok(found.response.persons.every((p) => p.last_name === 'Lovelace') && found.response.persons.length > 0);
  });

  test('ListVacancies keeps one status; GetVacancy reads one', async () => {
    const { response } = await call(app.staff, 'ListVacancies', { status: 2, page_size: 100 }, { metadata: viewer });
    const want = await db.query("SELECT count(*)::int AS n FROM vacancy WHERE status = 'open'");
    assert.equal(response.vacancies.length, Math.min(want.rows[0].n, 100));
    assert.ok(response.vacancies.every((v) => v.status === 2));
    const one = await call(app.staff, 'GetVacancy', { id: response.vacancies[0].id }, { metadata: viewer });
    assert.deepEqual(one.response, response.vacancies[0]);
  });
});

describe('writes', () => {
  test('a vacancy is created at version 1, updated, refused ABORTED at a stale version, deleted', async () => {
    const created = await call(app.staff, 'CreateVacancy', { vacancy: newVacancy() }, { metadata: editor });
    assert.equal(created.error, undefined, created.error?.details);
    const v = created.response;
    assert.equal(v.version, 1);
    assert.equal(v.closes_on, undefined, 'an unset optional field stays unset');
    const updated = await call(
      app.staff,
      'UpdateVacancy',
      { id: v.id, version: 1, title: 'Senior research assistant', salary_max_cents: 5_000_000, closes_on: '2026-06-30' },
      { metadata: editor },
    );
    assert.equal(updated.error, undefined, updated.error?.details);
    assert.equal(updated.response.version, 2);
    assert.equal(updated.response.title, 'Senior research assistant');
    assert.equal(updated.response.closes_on, '2026-06-30');
    assert.equal(updated.response.department, 'Physics', 'fields not sent are kept');
    const cleared = await call(app.staff, 'UpdateVacancy', { id: v.id, version: 2, clear_closes_on: true }, { metadata: editor });
    assert.equal(cleared.response.closes_on, undefined);
    const stale = await call(app.staff, 'UpdateVacancy', { id: v.id, version: 1, title: 'again' }, { metadata: editor });
    assert.equal(stale.error?.code, Code.ABORTED);
    assert.match(stale.error.details, /changed by someone else/);
    const deleted = await call(app.staff, 'DeleteVacancy', { id: v.id }, { metadata: editor });
    assert.deepEqual(deleted.response, {});
    const gone = await call(app.staff, 'GetVacancy', { id: v.id }, { metadata: editor });
    assert.equal(gone.error?.code, Code.NOT_FOUND);
    const again = await call(app.staff, 'DeleteVacancy', { id: v.id }, { metadata: editor });
    assert.equal(again.error?.code, Code.NOT_FOUND);
  });

  test('bad input is INVALID_ARGUMENT naming each field by its snake_case path in the request', async () => {
    const bad = await call(
      app.staff,
      'CreateVacancy',
      { vacancy: { ...newVacancy(), title: '', salary_min_cents: -1, employment_type: 0 } },
      { metadata: editor },
    );
    wantInvalid(bad.error, ['vacancy.employment_type', 'vacancy.salary_min_cents', 'vacancy.title']);
    const date = await call(app.staff, 'CreateVacancy', { vacancy: { ...newVacancy(), opens_on: '2026-02-30' } }, { metadata: editor });
    wantInvalid(date.error, ['vacancy.opens_on']);
    const noVersion = await call(app.staff, 'UpdateVacancy', { id: 1, title: 'x' }, { metadata: editor });
    wantInvalid(noVersion.error, ['version']);
    const range = await call(app.staff, 'UpdateVacancy', { id: 1, version: 1, salary_max_cents: 1 }, { metadata: editor });
    wantInvalid(range.error, ['salary_max_cents']);
    wantInvalid((await call(app.staff, 'ListPersons', { page_size: 5000 }, { metadata: viewer })).error, ['page_size']);
    wantInvalid((await call(app.staff, 'ListVacancies', { page_size: -1 }, { metadata: viewer })).error, ['page_size']);
    wantInvalid((await call(app.staff, 'ListPersons', { page_token: 'nope' }, { metadata: viewer })).error, ['page_token']);
    wantInvalid((await call(app.staff, 'ListPersons', { query: 'x'.repeat(101) }, { metadata: viewer })).error, ['query']);
    wantInvalid((await call(app.staff, 'ListPersons', { read_mask: { paths: ['salary'] } }, { metadata: viewer })).error, ['read_mask']);
  });

  test('an enum number its enum does not declare is INVALID_ARGUMENT naming the field, and nothing is stored', async () => {
    const before = await db.query('SELECT count(*)::int AS n FROM vacancy');
    const bad = await call(app.staff, 'CreateVacancy', { vacancy: { ...newVacancy(), status: 99 } }, { metadata: editor });
    wantInvalid(bad.error, ['vacancy.status']);
    assert.equal(details(bad.error)[0].value.field_violations[0].description, 'is not a VacancyStatus');
    const list = await call(app.staff, 'ListVacancies', { status: 7 }, { metadata: viewer });
    wantInvalid(list.error, ['status']);
    const upd = await call(app.staff, 'UpdateVacancy', { id: 1, version: 1, employment_type: 42 }, { metadata: editor });
    wantInvalid(upd.error, ['employment_type']);
    const after = await db.query('SELECT count(*)::int AS n FROM vacancy');
    assert.equal(after.rows[0].n, before.rows[0].n);
  });
});

describe('authentication', () => {
  test('Login refuses wrong credentials UNAUTHENTICATED and sends cache-control: no-store', async () => {
    const wrong = await call(app.staff, 'Login', { username: 'editor', password: 'nope' });
    assert.equal(wrong.error?.code, Code.UNAUTHENTICATED);
    const headers = await new Promise((resolve) => {
      const c = app.staff.Login({ username: 'viewer', password: 'viewer' }, () => {});
      c.on('metadata', (md) => resolve(md.get('cache-control')));
    });
    assert.deepEqual(headers, ['no-store']);
  });

  test('no, a bad or an expired token is UNAUTHENTICATED; a viewer writing PERMISSION_DENIED', async () => {
    for (const metadata of [{}, bearer('nope'), { authorization: 'Basic abc' }]) {
      const { error } = await call(app.staff, 'GetPerson', { id: 1 }, { metadata });
      assert.equal(error?.code, Code.UNAUTHENTICATED, JSON.stringify(metadata));
      assert.match(error.details, /authorization: Bearer/);
    }
    const lower = await call(app.staff, 'GetPerson', { id: 1 }, { metadata: { authorization: `bearer ${devToken('viewer')}` } });
    assert.equal(lower.error, undefined, 'the scheme in any case');
    const { createTokens } = await import('@crudbench/node-base/tokens.js');
    const { DEV_AUTH_SECRET } = await import('@crudbench/node-base/config.js');
    const expired = createTokens(DEV_AUTH_SECRET, -60_000).issue({ id: 1, username: 'viewer', role: 'viewer' }).token;
    const late = await call(app.staff, 'GetPerson', { id: 1 }, { metadata: bearer(expired) });
    assert.equal(late.error?.code, Code.UNAUTHENTICATED);
    assert.match(late.error.details, /expired/);
    const write = await call(app.staff, 'DeleteVacancy', { id: 1 }, { metadata: viewer });
    assert.equal(write.error?.code, Code.PERMISSION_DENIED);
  });
});

describe('limits', () => {
  test('metadata of more than 100 entries is RESOURCE_EXHAUSTED', async () => {
    const metadata = { ...viewer };
    for (let i = 0; i < 101; i++) metadata[`x-${i}`] = 'v';
    const { error } = await call(app.staff, 'GetPerson', { id: 1 }, { metadata });
    assert.equal(error?.code, Code.RESOURCE_EXHAUSTED);
  });

  test('a message over 1 MiB is RESOURCE_EXHAUSTED', async () => {
    const { error } = await call(app.staff, 'Login', { username: 'x'.repeat((1 << 20) + 10), password: '' });
    assert.equal(error?.code, Code.RESOURCE_EXHAUSTED);
  });
});

describe('health and metrics', () => {
  test('Check answers SERVING for the server and for crudbench.v1.Staff, NOT_FOUND for another name', async () => {
    for (const service of ['', 'crudbench.v1.Staff']) {
      const { response } = await call(app.health, 'Check', { service });
      assert.equal(response.status, 1, `${service}: SERVING`);
    }
    const { error } = await call(app.health, 'Check', { service: 'nope' });
    assert.equal(error?.code, Code.NOT_FOUND);
  });

  test('METRICS_ADDR serves the calls by method and code, the pool and the process', async () => {
    const text = await (await fetch(app.metricsUrl)).text();
    assert.match(text, /grpc_server_handling_seconds_count\{grpc_method="\/crudbench.v1.Staff\/GetPerson",grpc_code="OK"\} \d+/);
    assert.match(text, /grpc_code="InvalidArgument"/);
    for (const name of ['pgxpool_acquire_count_total', 'pg_pool_total_conns', 'process_cpu_seconds_total']) {
      assert.match(text, new RegExp(`^${name} `, 'm'), name);
    }
  });
});
