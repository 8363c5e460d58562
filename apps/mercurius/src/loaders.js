import { translated } from './resolvers.js';

// Mercurius's loaders: each field is resolved in one batch per request
// and level, whatever the number of parents, so every level of a nested
// read is one statement, as the Go app's dataloaders make it. A loader
// gets every parent that asked ({ obj, params }) and answers each, in
// order; Mercurius keys each query by the parent, serialized.
const loader = (load) => translated(load);

/** loaders are Mercurius's loaders of the nested fields, reading with context.persons. */
export const loaders = {
  Person: {
    appointments: loader((queries, { persons }) => persons.appointmentsByPersons(queries.map(({ obj }) => obj.id))),
  },
  Appointment: {
    person: loader((queries, { persons }) => persons.byIds(queries.map(({ obj }) => obj.personId))),
    stipends: loader((queries, { persons }) => persons.stipendsByAppointments(queries.map(({ obj }) => obj.id))),
    fundings: loader((queries, { persons }) => persons.fundingsByAppointments(queries.map(({ obj }) => obj.id))),
  },
  Vacancy: {
    filledByPerson: loader(async (queries, { persons }) => {
      const ids = queries.map(({ obj }) => obj.filledBy).filter((id) => id != null);
      const found = ids.length > 0 ? await persons.byIds(ids) : [];
      const byId = new Map(ids.map((id, i) => [id, found[i]]));
      return queries.map(({ obj }) => (obj.filledBy == null ? null : byId.get(obj.filledBy)));
    }),
  },
};
