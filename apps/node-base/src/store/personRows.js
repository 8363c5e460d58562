// The person reads' statements and row mappers, one copy for every Node
// app: express and fastify read a person's detail level by level
// (store/persons.js), the GraphQL apps in batches for their dataloaders.
import { PERSON_COLUMNS } from './personWrites.js';

// The statements are the Go app's (queries/person.sql, appointment.sql as
// sqlc expands them): a person's detail is read one statement per level
// (the person, its appointments, their stipends and fundings), whatever the
// number of parents, and a list is one.
export const GET = `SELECT ${PERSON_COLUMNS} FROM person WHERE id = $1`;
export const LIST = `SELECT ${PERSON_COLUMNS} FROM person
WHERE ($1::text IS NULL
       OR (first_name || ' ' || last_name || ' ' || email) ILIKE $1::text)
  AND (NOT $2::boolean
       OR (last_name, first_name, id) > ($3::text, $4::text, $5::bigint))
ORDER BY last_name, first_name, id
LIMIT $6`;
export const APPOINTMENTS = `SELECT id, person_id, position_title, department, fte, starts_on, ends_on FROM appointment
WHERE person_id = ANY($1::bigint[])
ORDER BY person_id, starts_on, id`;
// The joins return two columns called id: rows come as arrays.
export const STIPENDS = `SELECT stipend.id, stipend.appointment_id, stipend.payer_id, stipend.amount_cents, stipend.currency, stipend.starts_on, stipend.ends_on, payer.id, payer.code, payer.name, payer.kind
FROM stipend JOIN payer ON payer.id = stipend.payer_id
WHERE stipend.appointment_id = ANY($1::bigint[])
ORDER BY stipend.appointment_id, stipend.starts_on, stipend.id`;
export const FUNDINGS = `SELECT funding.appointment_id, funding.payer_id, funding.percent, payer.id, payer.code, payer.name, payer.kind
FROM funding JOIN payer ON payer.id = funding.payer_id
WHERE funding.appointment_id = ANY($1::bigint[])
ORDER BY funding.appointment_id, payer.code`;

export const appointmentOf = (r) => ({
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

export const stipendOf = (r) => ({
  id: r[0],
  appointmentId: r[1],
  payer: payerOf(r.slice(7)),
  amountCents: r[3],
  currency: r[4],
  startsOn: r[5],
  endsOn: r[6],
});

export const fundingOf = (r) => ({ appointmentId: r[0], payer: payerOf(r.slice(3)), percent: r[2] });

// ILIKE treats these as wildcards; a search means them literally.
export const likeEscape = (s) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
