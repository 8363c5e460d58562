import { invalid } from '../errors.js';

// The rules and messages of the Go store (db/input.go): both apps refuse
// the same input with the same words.

export const EMPLOYMENT_TYPES = ['full_time', 'part_time', 'contract'];
export const VACANCY_STATUSES = ['draft', 'open', 'closed', 'filled'];
export const PERSON_STATUSES = ['active', 'on_leave', 'former'];
const MAX_SALARY_CENTS = 100_000_000_000;
export const MAX_LIMIT = 1000;
export const DEFAULT_LIMIT = 50;

/** Problems collects one message per field; the first one wins. */
export class Problems {
  fields = {};

  add(field, message) {
    this.fields[field] ??= message;
  }

  has(field) {
    return field in this.fields;
  }

  /** text checks a text field's length in characters and its characters. */
  text(field, value, min, max, { multiline = false } = {}) {
    const control = multiline ? /[\p{Cc}--[\n\r\t]]/v : /\p{Cc}/u;
    if (!value.isWellFormed()) return this.add(field, 'must be valid UTF-8');
    if (control.test(value)) return this.add(field, 'must not contain control characters');
    const n = [...value].length;
    if (min > 0 && value.trim() === '') this.add(field, 'is required');
    else if (n < min) this.add(field, `must be at least ${min} characters`);
    else if (n > max) this.add(field, `must be at most ${max} characters`);
  }

  date(field, value, required) {
    if (value == null || value === '') {
      if (required) this.add(field, 'is required');
      return;
    }
    const year = Number(value.slice(0, 4));
    if (year < 1900 || year > 2200) this.add(field, 'must be a year between 1900 and 2200');
  }

  throwIfAny() {
    if (Object.keys(this.fields).length > 0) throw invalid(this.fields);
  }
}

/** validateVacancy checks a whole vacancy, new or patched. */
export function validateVacancy(v) {
  const p = new Problems();
  p.text('title', v.title, 1, 200);
  p.text('department', v.department, 1, 100);
  p.text('location', v.location, 1, 100);
  if (!EMPLOYMENT_TYPES.includes(v.employmentType)) p.add('employmentType', `must be one of ${EMPLOYMENT_TYPES.join(', ')}`);
  const salaryRange = `must be between 0 and ${MAX_SALARY_CENTS}`;
  if (v.salaryMinCents < 0 || v.salaryMinCents > MAX_SALARY_CENTS) p.add('salaryMinCents', salaryRange);
  if (v.salaryMaxCents < 0 || v.salaryMaxCents > MAX_SALARY_CENTS) p.add('salaryMaxCents', salaryRange);
  else if (v.salaryMaxCents < v.salaryMinCents) p.add('salaryMaxCents', 'must not be less than salaryMinCents');
  if (!VACANCY_STATUSES.includes(v.status)) p.add('status', `must be one of ${VACANCY_STATUSES.join(', ')}`);
  p.date('opensOn', v.opensOn, true);
  if (v.closesOn != null) {
    p.date('closesOn', v.closesOn, false);
    // YYYY-MM-DD strings order like the dates they name.
    if (v.opensOn && v.closesOn < v.opensOn) p.add('closesOn', 'must not be before opensOn');
  }
  p.text('description', v.description, 0, 10000, { multiline: true });
  if (v.filledBy != null && v.filledBy <= 0) p.add('filledBy', 'must be the id of a person');
  p.throwIfAny();
}

// An addr-spec without a display name, as Go's net/mail accepts it for the
// Go store's check: dot-atoms of letters, digits and RFC 5322 symbols.
const ATOM = "[\\p{L}\\p{N}!#$%&'*+/=?^_`{|}~-]+";
const EMAIL = new RegExp(`^${ATOM}(?:\\.${ATOM})*@${ATOM}(?:\\.${ATOM})*$`, 'u');

/** validatePerson checks a whole person, new or patched. */
export function validatePerson(v) {
  const p = new Problems();
  if (!(v.employeeNo > 0)) p.add('employeeNo', 'must be a positive number');
  p.text('firstName', v.firstName, 1, 100);
  p.text('lastName', v.lastName, 1, 100);
  p.text('email', v.email, 1, 254);
  if (!p.has('email') && !EMAIL.test(v.email)) p.add('email', 'must be a valid email address like name@example.org');
  p.text('phone', v.phone, 0, 40);
  if (/[^0-9+\-(). ]/.test(v.phone)) p.add('phone', 'may contain only digits, spaces and + - ( ) .');
  p.text('department', v.department, 1, 100);
  if (!PERSON_STATUSES.includes(v.status)) p.add('status', `must be one of ${PERSON_STATUSES.join(', ')}`);
  p.date('hiredOn', v.hiredOn, true);
  p.throwIfAny();
}

const LIMIT_MESSAGE = `must be a whole number from 1 to ${MAX_LIMIT}`;

/** pageLimit reads a page size: absent is the default, else 1..MAX_LIMIT. */
export function pageLimit(raw, field = 'limit') {
  if (raw === undefined || raw === '') return DEFAULT_LIMIT;
  const n = typeof raw === 'number' ? raw : /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw invalid({ [field]: LIMIT_MESSAGE });
  return n;
}

/** withoutNulls returns input without its null members: a create's null is a member left out. */
export const withoutNulls = (input) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null));
