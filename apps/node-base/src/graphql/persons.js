import { invalid } from '../errors.js';
import { query } from '../store/pool.js';
import { PERSON_COLUMNS, personOf } from '../store/personWrites.js';
import { findPerson, findPersonPage } from '../store/persons.js';
import { APPOINTMENTS, FUNDINGS, STIPENDS, appointmentOf, fundingOf, stipendOf } from '../store/personRows.js';

// The GraphQL apps' person reads. The batch reads serve their dataloaders:
// one statement per level of the graph, whatever the number of parents (the
// statements and row mappers are store/personRows.js's, shared with the
// REST apps' detail reads).
const BY_IDS = `SELECT ${PERSON_COLUMNS} FROM person WHERE id = ANY($1::bigint[]) ORDER BY id`;

/** groupBy returns, for each key, the items whose keyOf is that key, in order. */
function groupBy(keys, items, keyOf) {
  const groups = new Map(keys.map((k) => [k, []]));
  for (const item of items) groups.get(keyOf(item))?.push(item);
  return keys.map((k) => groups.get(k) ?? []);
}

/** personStore reads persons in pool, one at a time, by page or in batches. */
export function personStore(pool) {
  return {
    findById: (id) => findPerson(pool, id),

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
    find: (page) => findPersonPage(pool, page, { limitField: 'first', searchField: 'search', refuse: invalid }),
  };
}
