import DataLoader from 'dataloader';
import type { PersonReads } from '@crudbench/node-base/graphql/persons.js';

/** Loaders are one request's dataloaders of the nested fields. */
export type Loaders = ReturnType<typeof createLoaders>;

/**
 * createLoaders returns this request's dataloaders, made in the GraphQL
 * context: every level of a nested read is one statement, however many
 * parents ask for it, as the Go app's dataloaders make it, with whichever
 * driver.
 */
export function createLoaders(persons: PersonReads) {
  return {
    person: new DataLoader((ids: readonly unknown[]) => persons.byIds(ids)),
    appointments: new DataLoader((ids: readonly unknown[]) => persons.appointmentsByPersons(ids)),
    stipends: new DataLoader((ids: readonly unknown[]) => persons.stipendsByAppointments(ids)),
    fundings: new DataLoader((ids: readonly unknown[]) => persons.fundingsByAppointments(ids)),
  };
}
