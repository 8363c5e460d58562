import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPool, query } from '@crudbench/node-base/store/pool.js';
import { personStore } from '@crudbench/node-base/store/persons.js';
import { DATABASE_URL } from './start.js';

// One connection, so that the statements the store ran and the session's
// prepared statements are the same connection's.
let pool;

before(() => {
  pool = openPool({ databaseUrl: DATABASE_URL, dbMaxConns: 1, requestTimeoutMs: 5000 }, 'crudbench-express-test');
});

after(() => pool?.end());

test('each statement is prepared once per connection, as pgx does', async () => {
  const persons = personStore(pool);
  // Person 1 is the showcase: every nested level has rows.
  const first = await persons.findDetail(1);
  const again = await persons.findDetail(1);
  assert.deepEqual(again, first, 'a prepared statement answers as the first run did');
  assert.equal(first.appointments.length, 12);
  const { rows } = await pool.query('SELECT name, statement FROM pg_prepared_statements ORDER BY name');
  const texts = rows.map((r) => r.statement);
  // The person detail's four statements: the person, its appointments,
  // their stipends and fundings — each once, under its own name.
  assert.equal(rows.length, 4, `prepared: ${JSON.stringify(rows)}`);
  assert.ok(
    rows.every((r) => /^crudbench_\d+$/.test(r.name)),
    `names: ${rows.map((r) => r.name)}`,
  );
  assert.ok(texts.some((t) => t.includes('FROM person WHERE id = $1')));
  assert.ok(texts.some((t) => t.includes('FROM funding JOIN payer')));
});

test('a statement without parameters runs unprepared', async () => {
  await query(pool, 'SELECT 1');
  const { rows } = await pool.query("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = 'SELECT 1'");
  assert.equal(rows[0].n, 0);
});

test("an idle connection is kept past pg's ten seconds, as pgx keeps it", async () => {
  // pg's default idle timeout is 10 s; a pool that kept it would close
  // this connection before the second question and open another, with
  // another backend.
  const {
    rows: [before],
  } = await pool.query('SELECT pg_backend_pid() AS pid');
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const {
    rows: [later],
  } = await pool.query('SELECT pg_backend_pid() AS pid');
  assert.equal(later.pid, before.pid, 'the idle connection was closed and another opened');
  assert.equal(pool.totalCount, 1);
});
