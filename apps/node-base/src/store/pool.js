import pg from 'pg';
import { AppError, EINTERNAL, EINVALID, ECONFLICT, EUNAVAILABLE } from '../errors.js';

const { types, DatabaseError } = pg;

// Ids are bigint but stay far below 2^53, and the API sends them as JSON
// numbers; numeric columns (fte, percent) are sent as numbers too.
types.setTypeParser(types.builtins.INT8, Number);
types.setTypeParser(types.builtins.NUMERIC, Number);
// Dates travel as YYYY-MM-DD: a JavaScript Date would shift them by the zone.
types.setTypeParser(types.builtins.DATE, (s) => s);
// Timestamps keep PostgreSQL's microseconds (a Date keeps milliseconds):
// the session runs in UTC, so "2026-01-02 03:04:05.123456+00" only needs
// reshaping into RFC 3339.
types.setTypeParser(types.builtins.TIMESTAMPTZ, (s) => s.replace(' ', 'T').replace(/\+00$/, 'Z'));

/** IDLE_TIMEOUT_MS is how long an idle connection is kept: pgx's default MaxConnIdleTime. */
const IDLE_TIMEOUT_MS = 30 * 60 * 1000;

/**
 * openPool returns a pg Pool whose every wait is bounded by the request
 * timeout: for a free connection, for a new one, and for each statement
 * (server side and, should the server not answer at all, client side).
 */
export function openPool({ databaseUrl, dbMaxConns, requestTimeoutMs }, applicationName) {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: dbMaxConns,
    connectionTimeoutMillis: requestTimeoutMs,
    statement_timeout: requestTimeoutMs,
    query_timeout: requestTimeoutMs + 1000,
    // pg closes a connection idle for 10 s by default; pgx, in the Go apps,
    // keeps it 30 minutes (MaxConnIdleTime). With pg's default, a run that
    // starts after a pause, or a burst that needs more connections than the
    // last ten seconds did, opens new ones — connection start and every
    // statement prepared again — while requests queue behind them: yoga
    // started runs with a 1.6 s queue that way. The same idle time as pgx.
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    options: '-c TimeZone=UTC',
    application_name: applicationName, // names the app in pg_stat_activity
  });
  // An idle connection the server drops must not crash the process.
  pool.on('error', () => {});
  countAcquires(pool);
  return pool;
}

/**
 * countAcquires keeps, in pool.acquires, how many connections the pool has
 * handed out and the seconds callers waited for them in all — what pgx's
 * pool counts as pgxpool_acquire_count_total and
 * pgxpool_acquire_duration_seconds_total, which the bench reads from every
 * app to tell a pool that queues from a slow app. pg's Pool has no such
 * counters, so its connect (which pool.query uses too) is wrapped, in
 * both its callback and its promise form.
 */
function countAcquires(pool) {
  const acquires = { count: 0, waitSeconds: 0 };
  const connect = pool.connect.bind(pool);
  const since = (start) => Number(process.hrtime.bigint() - start) / 1e9;
  pool.connect = (callback) => {
    const start = process.hrtime.bigint();
    if (typeof callback === 'function') {
      return connect((err, client, release) => {
        if (!err) {
          acquires.count++;
          acquires.waitSeconds += since(start);
        }
        callback(err, client, release);
      });
    }
    return connect().then((client) => {
      acquires.count++;
      acquires.waitSeconds += since(start);
      return client;
    });
  };
  pool.acquires = acquires;
}

// constraintFields names the field behind each database rule, as the Go
// store does, so a write the database refuses reads like a validation error.
const constraintFields = {
  person_employee_no_key: ['employeeNo', 'is already used by another person'],
  person_email_key: ['email', 'is already used by another person'],
  person_employee_no_check: ['employeeNo', 'must be a positive number'],
  person_first_name_check: ['firstName', 'must be 1 to 100 characters'],
  person_last_name_check: ['lastName', 'must be 1 to 100 characters'],
  person_email_check: ['email', 'must be a valid email address'],
  person_phone_check: ['phone', 'must be at most 40 characters'],
  person_department_check: ['department', 'must be 1 to 100 characters'],
  person_status_check: ['status', 'is not a known status'],
  vacancy_filled_by_fkey: ['filledBy', 'is not the id of a person'],
  vacancy_salary_check: ['salaryMaxCents', 'must not be less than salaryMinCents'],
  vacancy_salary_min_cents_check: ['salaryMinCents', 'must not be negative'],
  vacancy_status_check: ['status', 'is not a known status'],
  vacancy_employment_type_check: ['employmentType', 'is not a known employment type'],
  vacancy_dates_check: ['closesOn', 'must not be before opensOn'],
  vacancy_title_check: ['title', 'must be 1 to 200 characters'],
  vacancy_department_check: ['department', 'must be 1 to 100 characters'],
  vacancy_location_check: ['location', 'must be 1 to 100 characters'],
  vacancy_description_check: ['description', 'must be at most 10000 characters'],
};

const TOO_SLOW = 'the database did not answer in time';
const UNAVAILABLE = 'the database is unavailable';

/** translate turns a pg failure into an AppError of the shared vocabulary. */
export function translate(err) {
  if (err instanceof AppError) return err;
  if (err instanceof DatabaseError) {
    const cls = err.code?.slice(0, 2);
    if (cls === '23') {
      const code = err.code === '23505' ? ECONFLICT : EINVALID;
      const field = constraintFields[err.constraint];
      if (field) return new AppError(code, 'invalid input', { fields: { [field[0]]: field[1] }, cause: err });
      return new AppError(code, 'the data breaks a database rule', { cause: err });
    }
    if (cls === '22') return new AppError(EINVALID, 'a value is out of range or malformed', { cause: err });
    if (err.code === '57014') return new AppError(EUNAVAILABLE, TOO_SLOW, { cause: err });
    if (cls === '57' || cls === '08' || cls === '53') return new AppError(EUNAVAILABLE, UNAVAILABLE, { cause: err });
    return new AppError(EINTERNAL, 'internal error', { cause: err });
  }
  // Anything else pg throws is about the connection: refused, dropped, or
  // a wait that ran out.
  if (/timeout/i.test(err?.message ?? '')) return new AppError(EUNAVAILABLE, TOO_SLOW, { cause: err });
  if (err?.code || /connect|terminat|closed/i.test(err?.message ?? '')) {
    return new AppError(EUNAVAILABLE, UNAVAILABLE, { cause: err });
  }
  return new AppError(EINTERNAL, 'internal error', { cause: err });
}

/**
 * statementNames names each statement text once, so that pg prepares it
 * once per connection and then only binds and executes it, as pgx does
 * with its statement cache in the Go apps: an unnamed statement is
 * parsed and planned by PostgreSQL on every call. The texts are the
 * stores' constants, a bounded set; beyond MAX_NAMED a text runs unnamed.
 */
const statementNames = new Map();
const MAX_NAMED = 256;

function named(config) {
  if (typeof config === 'string') return config; // BEGIN, COMMIT: no parameters, nothing to plan
  let name = statementNames.get(config.text);
  if (name === undefined) {
    if (statementNames.size >= MAX_NAMED) return config;
    name = `crudbench_${statementNames.size + 1}`;
    statementNames.set(config.text, name);
  }
  return { ...config, name };
}

/** query runs one statement, prepared once per connection, and translates its failure. */
export async function query(db, config) {
  try {
    return await db.query(named(config));
  } catch (err) {
    throw translate(err);
  }
}

/** inTransaction runs fn with one client between BEGIN and COMMIT. */
export async function inTransaction(pool, fn) {
  let client;
  try {
    client = await pool.connect();
  } catch (err) {
    throw translate(err);
  }
  let broken = false;
  try {
    await query(client, 'BEGIN');
    const result = await fn(client);
    await query(client, 'COMMIT');
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true; // the connection is unusable: drop it from the pool
    }
    throw translate(err);
  } finally {
    client.release(broken);
  }
}

/** ping reports whether the database of pool answers within 2 s: every HTTP app's /readyz. */
export async function ping(pool) {
  try {
    await Promise.race([pool.query('SELECT 1'), new Promise((_, reject) => setTimeout(reject, 2000, new Error('ping timeout')).unref())]);
    return true;
  } catch {
    return false;
  }
}
