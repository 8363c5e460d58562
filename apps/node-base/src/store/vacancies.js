import { AppError, ENOTFOUND, invalid, staleVersion } from '../errors.js';
import { query, inTransaction } from './pool.js';
import { validateVacancy, pageLimit, VACANCY_STATUSES, withoutNulls } from './validate.js';
import { encodeCursor, decodeCursor } from './cursor.js';

// The statements are the Go app's (queries/vacancy.sql as sqlc expands it),
// one per read, so that both spend the same on the database.
const COLUMNS =
  'id, title, department, location, employment_type, salary_min_cents, salary_max_cents, status, opens_on, closes_on, description, filled_by, version, created_at, updated_at';

const GET = `SELECT ${COLUMNS} FROM vacancy WHERE id = $1`;
const LIST = `SELECT ${COLUMNS} FROM vacancy
WHERE ($1::text IS NULL OR status = $1::text)
  AND id > $2
ORDER BY id
LIMIT $3`;
const CREATE = `INSERT INTO vacancy (title, department, location, employment_type, salary_min_cents,
                     salary_max_cents, status, opens_on, closes_on, description, filled_by)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
RETURNING ${COLUMNS}`;
const UPDATE = `UPDATE vacancy
SET title = $1, department = $2, location = $3,
    employment_type = $4, salary_min_cents = $5,
    salary_max_cents = $6, status = $7, opens_on = $8,
    closes_on = $9, description = $10, filled_by = $11,
    version = version + 1, updated_at = now()
WHERE id = $12 AND version = $13
RETURNING ${COLUMNS}`;
const DELETE = 'DELETE FROM vacancy WHERE id = $1';

/** vacancyOf maps a row to the API's vacancy, member order included. */
const vacancyOf = (r) => ({
  id: r.id,
  title: r.title,
  department: r.department,
  location: r.location,
  employmentType: r.employment_type,
  salaryMinCents: r.salary_min_cents,
  salaryMaxCents: r.salary_max_cents,
  status: r.status,
  opensOn: r.opens_on,
  closesOn: r.closes_on,
  description: r.description,
  filledBy: r.filled_by,
  version: r.version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** ZERO_VACANCY is a vacancy of Go's zero values, what a create fills in for what it is not given. */
const ZERO_VACANCY = Object.freeze({
  title: '',
  department: '',
  location: '',
  employmentType: '',
  salaryMinCents: 0,
  salaryMaxCents: 0,
  status: '',
  opensOn: '',
  description: '',
});

const params = (v) => [
  v.title,
  v.department,
  v.location,
  v.employmentType,
  v.salaryMinCents,
  v.salaryMaxCents,
  v.status,
  v.opensOn,
  v.closesOn ?? null,
  v.description,
  v.filledBy ?? null,
];

const notFound = (id) => new AppError(ENOTFOUND, `vacancy ${id} not found`);

/** vacancyStore reads and writes vacancies in pool. */
export function vacancyStore(pool) {
  return {
    async findById(id) {
      const { rows } = await query(pool, { text: GET, values: [id] });
      if (rows.length === 0) throw notFound(id);
      return vacancyOf(rows[0]);
    },

    /** find returns one page ordered by id: { items, nextCursor }; limitField names the page size in errors. */
    async find({ status, after, limit, limitField = 'limit' }) {
      const size = pageLimit(limit, limitField);
      if (status && !VACANCY_STATUSES.includes(status)) {
        throw invalid({ status: `must be one of ${VACANCY_STATUSES.join(', ')}` });
      }
      const afterId = after ? decodeCursor(after, 'vacancy').i : 0;
      // One row more than asked tells whether another page follows.
      const { rows } = await query(pool, { text: LIST, values: [status || null, afterId, size + 1] });
      const items = rows.slice(0, size).map(vacancyOf);
      // Go's encoder sorts map keys: "i" before "k".
      const nextCursor = rows.length > size ? encodeCursor({ i: items[size - 1].id, k: 'vacancy' }) : null;
      return { items, nextCursor };
    },

    /**
     * create stores a new vacancy; a member input leaves out or sends null
     * is Go's zero value, as the Go store receives a decoded struct.
     */
    async create(input) {
      const v = { ...ZERO_VACANCY, ...withoutNulls(input) };
      v.status ||= 'draft';
      validateVacancy(v);
      const { rows } = await query(pool, { text: CREATE, values: params(v) });
      return vacancyOf(rows[0]);
    },

    /** update applies patch if the vacancy is still at version. */
    async update(id, version, patch) {
      return inTransaction(pool, async (client) => {
        const { rows } = await query(client, { text: GET, values: [id] });
        if (rows.length === 0) throw notFound(id);
        const current = vacancyOf(rows[0]);
        if (current.version !== version) throw staleVersion('vacancy');
        const next = { ...current, ...patch };
        validateVacancy(next);
        const updated = await query(client, { text: UPDATE, values: [...params(next), id, version] });
        if (updated.rows.length === 0) throw staleVersion('vacancy');
        return vacancyOf(updated.rows[0]);
      });
    },

    async delete(id) {
      const { rowCount } = await query(pool, { text: DELETE, values: [id] });
      if (rowCount === 0) throw notFound(id);
    },
  };
}
