import DataLoader from 'dataloader';
import { authenticate } from './auth.js';

// What a GraphQL app's request context holds, whatever its engine that
// batches with dataloaders (Mercurius batches with its own loaders, and
// reads only auth.js): the stores and tokens, the request's dataloaders
// and the user of its token. The engine's glue hands it the
// Authorization header and the request's bounds.

/**
 * requestContext is the context of a request with this Authorization
 * header, which the resolvers (graphql/resolvers.js) read: deps' stores
 * and tokens, the request's dataloaders over deps.persons
 * (graphql/persons.js), bounds (its deadline, a performance.now() time,
 * and its signal, aborted when the client leaves, for the document
 * limits; none where the engine hands them on another way), and the
 * user of its token, or why the token was refused.
 */
export function requestContext({ persons, personWriter, vacancies, users, tokens }, authorization, bounds = {}) {
  return {
    persons,
    personWriter,
    vacancies,
    users,
    tokens,
    loaders: createLoaders(persons),
    ...bounds,
    ...authenticate(authorization, tokens),
  };
}

/**
 * createLoaders returns a request's dataloaders: every level of a nested
 * read is one statement, however many parents ask for it, as the Go
 * app's dataloaders make it.
 */
export function createLoaders(persons) {
  return {
    person: new DataLoader((ids) => persons.byIds(ids)),
    appointments: new DataLoader((ids) => persons.appointmentsByPersons(ids)),
    stipends: new DataLoader((ids) => persons.stipendsByAppointments(ids)),
    fundings: new DataLoader((ids) => persons.fundingsByAppointments(ids)),
  };
}
