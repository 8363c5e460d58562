// The REST contract's write bodies, as the Go rest app decodes them: the
// members of a person and a vacancy and their types, the shapes a REST
// app hands decodeBody (json.js), and an update's patch, with the members
// a null may clear. express and nest read their bodies with them.
import { badRequest } from '../errors.js';

/** PERSON is a person's body, as a create takes it. */
export const PERSON = Object.freeze({
  employeeNo: 'int32',
  firstName: 'string',
  lastName: 'string',
  email: 'string',
  phone: 'string',
  department: 'string',
  status: 'string',
  hiredOn: 'date',
});

/** PERSON_UPDATE is a person update's body: the version it is based on, and the members to change. */
export const PERSON_UPDATE = Object.freeze({ version: 'int32', ...PERSON });

/** VACANCY is a vacancy's body, as a create takes it. */
export const VACANCY = Object.freeze({
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
});

/** VACANCY_UPDATE is a vacancy update's body: the version it is based on, and the members to change. */
export const VACANCY_UPDATE = Object.freeze({ version: 'int32', ...VACANCY });

/** personPatch returns the members a decoded PERSON_UPDATE body changes; no person member may be cleared. */
export const personPatch = (body) => patchOf(body, []);

/** vacancyPatch returns the members a decoded VACANCY_UPDATE body changes; a null clears closesOn or filledBy. */
export const vacancyPatch = (body) => patchOf(body, ['closesOn', 'filledBy']);

/**
 * patchOf returns body's members but its version, those of clearable sent
 * as null set to null, and refuses a null for any other member.
 */
function patchOf(body, clearable) {
  const cannotClear = body.nulls.filter((k) => !clearable.includes(k) && k !== 'version');
  if (cannotClear.length > 0) {
    throw badRequest('a field that cannot be cleared is null', Object.fromEntries(cannotClear.map((k) => [k, 'must not be null'])));
  }
  const { version, ...patch } = body;
  for (const k of clearable) if (body.nulls.includes(k)) patch[k] = null;
  return patch;
}
