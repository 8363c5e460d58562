// The conversions between the store's objects and the messages, as the
// Go app's messages.go: enums by name ("on_leave" is
// PERSON_STATUS_ON_LEAVE), instants as google.protobuf.Timestamp, a null
// optional field left unset.
import { enumOf } from './proto.js';

export const personStatus = enumOf('PersonStatus', 'PERSON_STATUS_');
export const payerKind = enumOf('PayerKind', 'PAYER_KIND_');
export const employmentType = enumOf('EmploymentType', 'EMPLOYMENT_TYPE_');
export const vacancyStatus = enumOf('VacancyStatus', 'VACANCY_STATUS_');

/**
 * timestamp turns the store's RFC 3339 instant in UTC with PostgreSQL's
 * microseconds ("2026-01-02T03:04:05.123456Z") into a Timestamp, or a
 * Date (a token's expiry).
 */
export function timestamp(t) {
  if (t instanceof Date) return { seconds: Math.floor(t.getTime() / 1000), nanos: (t.getTime() % 1000) * 1e6 };
  const dot = t.indexOf('.');
  if (dot < 0) return { seconds: Date.parse(t) / 1000, nanos: 0 };
  const fraction = t.slice(dot + 1, -1);
  return { seconds: Date.parse(`${t.slice(0, dot)}Z`) / 1000, nanos: Number(fraction.padEnd(9, '0')) };
}

export const personMessage = (p) => ({
  id: p.id,
  employee_no: p.employeeNo,
  first_name: p.firstName,
  last_name: p.lastName,
  email: p.email,
  phone: p.phone,
  department: p.department,
  status: personStatus.number(p.status),
  hired_on: p.hiredOn,
  version: p.version,
  created_at: timestamp(p.createdAt),
  updated_at: timestamp(p.updatedAt),
});

const payerMessage = (p) => ({ id: p.id, code: p.code, name: p.name, kind: payerKind.number(p.kind) });

export const appointmentMessage = (a) => ({
  id: a.id,
  person_id: a.personId,
  position_title: a.positionTitle,
  department: a.department,
  fte: a.fte,
  starts_on: a.startsOn,
  ends_on: a.endsOn ?? undefined,
  stipends: a.stipends.map((s) => ({
    id: s.id,
    appointment_id: s.appointmentId,
    payer: payerMessage(s.payer),
    amount_cents: s.amountCents,
    currency: s.currency,
    starts_on: s.startsOn,
    ends_on: s.endsOn ?? undefined,
  })),
  fundings: a.fundings.map((f) => ({ appointment_id: f.appointmentId, payer: payerMessage(f.payer), percent: f.percent })),
});

export const vacancyMessage = (v) => ({
  id: v.id,
  title: v.title,
  department: v.department,
  location: v.location,
  employment_type: employmentType.number(v.employmentType),
  salary_min_cents: v.salaryMinCents,
  salary_max_cents: v.salaryMaxCents,
  status: vacancyStatus.number(v.status),
  opens_on: v.opensOn,
  closes_on: v.closesOn ?? undefined,
  description: v.description,
  filled_by: v.filledBy ?? undefined,
  version: v.version,
  created_at: timestamp(v.createdAt),
  updated_at: timestamp(v.updatedAt),
});

/** int64 reads a request's 64-bit integer (a decimal string, or absent for 0) as a number. */
export const int64 = (s) => (s === undefined ? 0 : Number(s));

/**
 * isDate reports whether s is a date of the form YYYY-MM-DD that exists,
 * as the Go store's ParseDate (time.Parse) accepts it.
 */
export function isDate(s) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
