import DataLoader from 'dataloader';

/**
 * createLoaders returns this request's dataloaders: every level of a nested
 * read is one statement, however many parents ask for it.
 */
export function createLoaders(persons) {
  return {
    person: new DataLoader((ids) => persons.byIds(ids)),
    appointments: new DataLoader((ids) => persons.appointmentsByPersons(ids)),
    stipends: new DataLoader((ids) => persons.stipendsByAppointments(ids)),
    fundings: new DataLoader((ids) => persons.fundingsByAppointments(ids)),
  };
}
