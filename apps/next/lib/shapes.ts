// The members a person or a vacancy body may carry, with their types, as
// the Go rest app decodes them (express's routes hold the same).
import type { Deps } from './deps';
import type { Shape } from './rest';

/** VacancyInput is what a vacancy's create or update sets (crudbench-trpc's type of node-base's store). */
export type VacancyInput = Parameters<Deps['vacancies']['create']>[0];

export const PERSON: Shape = {
  employeeNo: 'int32',
  firstName: 'string',
  lastName: 'string',
  email: 'string',
  phone: 'string',
  department: 'string',
  status: 'string',
  hiredOn: 'date',
};

export const VACANCY: Shape = {
  title: 'string',
  department: 'string',
  location: 'string',
  employmentType: 'string',
  salaryMinCents: 'int64',
  salaryMaxCents: 'int64',
  status: 'string',
  opensOn: 'date',
  closesOn: 'date',
  description: 'string',
  filledBy: 'int64',
};

/** VACANCY_CLEARABLE are the vacancy members a null clears. */
export const VACANCY_CLEARABLE = ['closesOn', 'filledBy'];
