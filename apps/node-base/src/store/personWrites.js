import { AppError, ENOTFOUND, staleVersion } from '../errors.js';
import { query, inTransaction } from './pool.js';
import { validatePerson, withoutNulls } from './validate.js';

// A person's columns and their API shape, shared by the reads and the
// writes; the statements are the Go app's (queries/person.sql).
export const PERSON_COLUMNS =
  'id, employee_no, first_name, last_name, email, phone, department, status, hired_on, version, created_at, updated_at';

export const personOf = (r) => ({
  id: r.id,
  employeeNo: r.employee_no,
  firstName: r.first_name,
  lastName: r.last_name,
  email: r.email,
  phone: r.phone,
  department: r.department,
  status: r.status,
  hiredOn: r.hired_on,
  version: r.version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const GET = `SELECT ${PERSON_COLUMNS} FROM person WHERE id = $1`;
const CREATE = `INSERT INTO person (employee_no, first_name, last_name, email, phone, department, status, hired_on)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
RETURNING ${PERSON_COLUMNS}`;
const UPDATE = `UPDATE person
SET employee_no = $1, first_name = $2, last_name = $3,
    email = $4, phone = $5, department = $6, status = $7,
    hired_on = $8, version = version + 1, updated_at = now()
WHERE id = $9 AND version = $10
RETURNING ${PERSON_COLUMNS}`;
const DELETE = 'DELETE FROM person WHERE id = $1';

/** ZERO_PERSON is a person of Go's zero values, what a create fills in for what it is not given. */
const ZERO_PERSON = Object.freeze({
  employeeNo: 0,
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  department: '',
  status: '',
  hiredOn: '',
});

const params = (p) => [p.employeeNo, p.firstName, p.lastName, p.email, p.phone, p.department, p.status, p.hiredOn];

const notFound = (id) => new AppError(ENOTFOUND, `person ${id} not found`);

/** personWriter creates, updates and deletes persons in pool. */
export function personWriter(pool) {
  return {
    /**
     * create stores a new person; a member input leaves out or sends null
     * is Go's zero value, as the Go store receives a decoded struct.
     */
    async create(input) {
      const p = { ...ZERO_PERSON, ...withoutNulls(input) };
      p.status ||= 'active';
      validatePerson(p);
      const { rows } = await query(pool, { text: CREATE, values: params(p) });
      return personOf(rows[0]);
    },

    /** update applies patch if the person is still at version. */
    async update(id, version, patch) {
      return inTransaction(pool, async (client) => {
        const { rows } = await query(client, { text: GET, values: [id] });
        if (rows.length === 0) throw notFound(id);
        const current = personOf(rows[0]);
        if (current.version !== version) throw staleVersion('person');
        const next = { ...current, ...patch };
        validatePerson(next);
        const updated = await query(client, { text: UPDATE, values: [...params(next), id, version] });
        if (updated.rows.length === 0) throw staleVersion('person');
        return personOf(updated.rows[0]);
      });
    },

    async delete(id) {
      const { rowCount } = await query(pool, { text: DELETE, values: [id] });
      if (rowCount === 0) throw notFound(id);
    },
  };
}
