// The procedures' inputs as zod schemas: their members and each member's
// type, nothing else. The rules about values (lengths, enums, ranges,
// page sizes, cursors) are the Go store's, kept in node-base's store with
// its words, so that a value this app refuses is refused as every other
// app refuses it. An input with a member it does not take is refused.
import { z } from 'zod';

/** message is a member's refusal: missing when required, else of the wrong type. */
const message = (wrongType: string) => (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : wrongType);

const MAX_INT64 = 2 ** 63;

/** isDate reports whether s is a real calendar date written YYYY-MM-DD. */
function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

const text = () => z.string({ error: message('must be a string') });

// JavaScript reads a JSON number as a double: 9223372036854775807 and the
// few integers below it read as 2^63, which is refused as beyond int64.
const INT64 = 'must be a whole number from -9223372036854775808 to 9223372036854775807';
const int64 = () =>
  z.number({ error: message(INT64) }).refine((v) => Number.isInteger(v) && v >= -MAX_INT64 && v < MAX_INT64, { error: INT64 });

const INT32 = 'must be a whole number from -2147483648 to 2147483647';
const int32 = () =>
  z.number({ error: message(INT32) }).refine((v) => Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31, { error: INT32 });

const DATE = 'must be a date written YYYY-MM-DD';
const date = () => z.string({ error: message(DATE) }).refine(isDate, { error: DATE });

const ID = 'must be a positive whole number';
/** id is a row's id: a positive int64. */
const id = () => z.number({ error: message(ID) }).refine((v) => Number.isInteger(v) && v >= 1 && v < MAX_INT64, { error: ID });

/** byId is the input of a read or delete of one row. */
export const byId = z.strictObject({ id: id() });

/** login is auth.login's input. */
export const login = z.strictObject({ username: text(), password: text() });

// A page size is checked by the store (1 to 1000, its message); here only
// that it is a number.
const LIMIT = 'must be a whole number from 1 to 1000';
const limit = () => z.number({ error: message(LIMIT) });

/** personPage is person.list's input: a page size, the cursor of the page before, a search. */
export const personPage = z.strictObject({ limit: limit(), after: text(), q: text() }).partial().optional();

/** vacancyPage is vacancy.list's input: a status to keep, a page size, the cursor of the page before. */
export const vacancyPage = z.strictObject({ status: text(), limit: limit(), after: text() }).partial().optional();

/** vacancyFields are a vacancy's writable members; null clears closesOn and filledBy. */
const vacancyFields = {
  title: text(),
  department: text(),
  location: text(),
  employmentType: text(),
  salaryMinCents: int64(),
  salaryMaxCents: int64(),
  status: text(),
  opensOn: date(),
  closesOn: date().nullable(),
  description: text(),
  filledBy: int64().nullable(),
};

/** newVacancy is vacancy.create's input: a member left out is empty, and the store says what is required. */
export const newVacancy = z.strictObject(vacancyFields).partial();

/**
 * vacancyPatch is vacancy.update's input: the id, the version the change
 * is based on, and the members to change. The version is required, but
 * its absence is the procedure's refusal (PRECONDITION_FAILED, as REST's
 * 428 Precondition Required), not a type error.
 */
export const vacancyPatch = newVacancy.extend({ id: id(), version: int32().optional() });
