import { AppError, ENOTFOUND, invalid } from '@crudbench/node-base/errors.js';
import { query } from '@crudbench/node-base/store/pool.js';
import { Problems, pageLimit } from '@crudbench/node-base/store/validate.js';
import { encodeCursor, decodeCursor, badCursor } from '@crudbench/node-base/store/cursor.js';
import { PERSON_COLUMNS, personOf } from '@crudbench/node-base/store/personWrites.js';

// The statements are the Go app's (queries/person.sql, appointment.sql as
// sqlc expands them). The batch reads serve the dataloaders: one statement
// per level of the graph, whatever the number of parents.
const GET = `SELECT ${PERSON_COLUMNS} FROM person WHERE id = $1`;
const LIST = `SELECT ${PERSON_COLUMNS} FROM person
WHERE ($1::text IS NULL
       OR (first_name || ' ' || last_name || ' ' || email) ILIKE $1::text)
  AND (NOT $2::boolean
       OR (last_name, first_name, id) > ($3::text, $4::text, $5::bigint))
ORDER BY last_name, first_name, id
LIMIT $6`;
const APPOINTMENTS = `SELECT id, person_id, position_title, department, fte, starts_on, ends_on FROM appointment
WHERE person_id = ANY($1::bigint[])
ORDER BY person_id, starts_on, id`;
// The joins return two columns called id: rows come as arrays.
const BY_IDS = `SELECT ${PERSON_COLUMNS} FROM person WHERE id = ANY($1::bigint[]) ORDER BY id`;
const STIPENDS = `SELECT stipend.id, stipend.appointment_id, stipend.payer_id, stipend.amount_cents, stipend.currency, stipend.starts_on, stipend.ends_on, payer.id, payer.code, payer.name, payer.kind
FROM stipend JOIN payer ON payer.id = stipend.payer_id
WHERE stipend.appointment_id = ANY($1::bigint[])
ORDER BY stipend.appointment_id, stipend.starts_on, stipend.id`;
const FUNDINGS = `SELECT funding.appointment_id, funding.payer_id, funding.percent, payer.id, payer.code, payer.name, payer.kind
FROM funding JOIN payer ON payer.id = funding.payer_id
WHERE funding.appointment_id = ANY($1::bigint[])
ORDER BY funding.appointment_id, payer.code`;

const appointmentOf = (r) => ({
  id: r.id,
  personId: r.person_id,
  positionTitle: r.position_title,
  department: r.department,
  fte: r.fte,
  startsOn: r.starts_on,
  endsOn: r.ends_on,
  stipends: [],
  fundings: [],
});

const payerOf = ([id, code, name, kind]) => ({ id, code, name, kind });

const stipendOf = (r) => ({
  id: r[0],
  appointmentId: r[1],
  payer: payerOf(r.slice(7)),
  amountCents: r[3],
  currency: r[4],
  startsOn: r[5],
  endsOn: r[6],
});

const fundingOf = (r) => ({ appointmentId: r[0], payer: payerOf(r.slice(3)), percent: r[2] });

// ILIKE treats these as wildcards; a search means them literally.
const likeEscape = (s) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** groupBy returns, for each key, the items whose keyOf is that key, in order. */
function groupBy(keys, items, keyOf) {
  const groups = new Map(keys.map((k) => [k, []]));
  for (const item of items) groups.get(keyOf(item))?.push(item);
  return keys.map((k) => groups.get(k) ?? []);
}

/** personStore reads persons in pool. */
export function personStore(pool) {
  return {
    async findById(id) {
      const { rows } = await query(pool, { text: GET, values: [id] });
      if (rows.length === 0) throw new AppError(ENOTFOUND, `person ${id} not found`);
      return personOf(rows[0]);
    },

    /** byIds returns the persons of ids, null where there is none. */
    async byIds(ids) {
      const { rows } = await query(pool, { text: BY_IDS, values: [ids] });
      const byId = new Map(rows.map((r) => [r.id, personOf(r)]));
      return ids.map((id) => byId.get(id) ?? null);
    },

    /** appointmentsByPersons returns each person's appointments, by start date. */
    async appointmentsByPersons(personIds) {
      const { rows } = await query(pool, { text: APPOINTMENTS, values: [personIds] });
      return groupBy(personIds, rows.map(appointmentOf), (a) => a.personId);
    },

    async stipendsByAppointments(appointmentIds) {
      const { rows } = await query(pool, { text: STIPENDS, values: [appointmentIds], rowMode: 'array' });
      return groupBy(appointmentIds, rows.map(stipendOf), (s) => s.appointmentId);
    },

    async fundingsByAppointments(appointmentIds) {
      const { rows } = await query(pool, { text: FUNDINGS, values: [appointmentIds], rowMode: 'array' });
      return groupBy(appointmentIds, rows.map(fundingOf), (f) => f.appointmentId);
    },

    /** find returns one page ordered by name: { items, nextCursor }. */
    async find({ search, after, limit }) {
      const size = pageLimit(limit, 'first');
      let pattern = null;
      if (search) {
        const p = new Problems();
        p.text('search', search, 0, 100);
        if (Object.keys(p.fields).length > 0) throw invalid(p.fields);
        pattern = `%${likeEscape(search)}%`;
      }
      let from = [false, '', '', 0];
      if (after) {
        const c = decodeCursor(after, 'person');
        if (typeof c.l !== 'string' || typeof c.f !== 'string' || c.i <= 0 || `${c.l}${c.f}`.includes('\0')) {
          throw badCursor();
        }
        from = [true, c.l, c.f, c.i];
      }
      const { rows } = await query(pool, { text: LIST, values: [pattern, ...from, size + 1] });
      const items = rows.slice(0, size).map(personOf);
      const last = items[size - 1];
      const nextCursor = rows.length > size ? encodeCursor({ k: 'person', l: last.lastName, f: last.firstName, i: last.id }) : null;
      return { items, nextCursor };
    },
  };
}
