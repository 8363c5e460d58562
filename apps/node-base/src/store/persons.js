import { AppError, ENOTFOUND, badRequest } from '../errors.js';
import { query } from './pool.js';
import { Problems, pageLimit } from './validate.js';
import { encodeCursor, decodeCursor, badCursor } from './cursor.js';
import { personOf } from './personWrites.js';
import { APPOINTMENTS, FUNDINGS, GET, LIST, STIPENDS, appointmentOf, fundingOf, likeEscape, stipendOf } from './personRows.js';

/** personStore reads persons in pool. */
export function personStore(pool) {
  /** findAppointments returns the appointments of the persons, with stipends and fundings. */
  async function findAppointments(personIds) {
    const { rows } = await query(pool, { text: APPOINTMENTS, values: [personIds] });
    const appointments = rows.map(appointmentOf);
    if (appointments.length === 0) return appointments;
    const ids = appointments.map((a) => a.id);
    const [stipends, fundings] = [
      await query(pool, { text: STIPENDS, values: [ids], rowMode: 'array' }),
      await query(pool, { text: FUNDINGS, values: [ids], rowMode: 'array' }),
    ];
    const byId = new Map(appointments.map((a) => [a.id, a]));
    for (const r of stipends.rows) byId.get(r[1]).stipends.push(stipendOf(r));
    for (const r of fundings.rows) byId.get(r[0]).fundings.push(fundingOf(r));
    return appointments;
  }

  return {
    findById: (id) => findPerson(pool, id),

    /** findDetail returns the person with every appointment nested inside. */
    async findDetail(id) {
      const person = await this.findById(id);
      return { ...person, appointments: await findAppointments([id]) };
    },

    /** find returns one page ordered by name: { items, nextCursor }. */
    find: (page) =>
      findPersonPage(pool, page, { limitField: 'limit', searchField: 'q', refuse: (f) => badRequest('invalid query parameter', f) }),
  };
}

/** findPerson returns the person id, or ENOTFOUND. */
export async function findPerson(pool, id) {
  const { rows } = await query(pool, { text: GET, values: [id] });
  if (rows.length === 0) throw new AppError(ENOTFOUND, `person ${id} not found`);
  return personOf(rows[0]);
}

/**
 * findPersonPage returns one page of persons ordered by name, { items,
 * nextCursor }, for every Node app: the transports name the page size and
 * search fields their own way (limitField, searchField), and refuse(fields)
 * is the error for a search that is too long.
 */
export async function findPersonPage(pool, { search, after, limit }, { limitField, searchField, refuse }) {
  const size = pageLimit(limit, limitField);
  let pattern = null;
  if (search) {
    const p = new Problems();
    p.text(searchField, search, 0, 100);
    if (Object.keys(p.fields).length > 0) throw refuse(p.fields);
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
}
