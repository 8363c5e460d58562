// The JSON schemas of the API: what a request body may hold, checked by
// Ajv before a handler runs, and what an answer holds, written by
// fast-json-stringify. They are resources/openapi.yaml's, in the shape
// the Go app decodes and encodes.
//
// A request member's description is what the refusal of a wrong type
// says it must be ("salaryMinCents": "must be a whole number from …"),
// word for word the Go app's. Every member may be null: the handlers tell
// a cleared member from one left out.

const member = (type, description, more) => ({ type: [type, 'null'], description, ...more });
const text = member('string', 'a string');
const date = member('string', 'a date written YYYY-MM-DD', { format: 'date' });
const int32 = member('integer', 'a whole number from -2147483648 to 2147483647', {
  minimum: -(2 ** 31),
  maximum: 2 ** 31 - 1,
});
// 2 ** 63 is also what JSON.parse makes of 9223372036854775807 and the few
// integers below it: a double cannot tell them apart.
const int64 = member('integer', 'a whole number from -9223372036854775808 to 9223372036854775807', {
  minimum: -(2 ** 63),
  exclusiveMaximum: 2 ** 63,
});

const body = (properties) => ({ type: 'object', additionalProperties: false, properties });

const personMembers = {
  employeeNo: int32,
  firstName: text,
  lastName: text,
  email: text,
  phone: text,
  department: text,
  status: text,
  hiredOn: date,
};

const vacancyMembers = {
  title: text,
  department: text,
  location: text,
  employmentType: text,
  salaryMinCents: int64,
  salaryMaxCents: int64,
  status: text,
  opensOn: date,
  closesOn: date,
  description: text,
  filledBy: int64,
};

export const loginBody = body({ username: text, password: text });
export const personBody = body(personMembers);
export const personPatchBody = body({ version: int32, ...personMembers });
export const vacancyBody = body(vacancyMembers);
export const vacancyPatchBody = body({ version: int32, ...vacancyMembers });

// The answers. Members are listed in the order the Go app writes them,
// which fast-json-stringify keeps; a value it does not list is not sent.

const object = (properties) => ({ type: 'object', properties });
const string = { type: 'string' };
const integer = { type: 'integer' };
const number = { type: 'number' };
const nullable = (type) => ({ type: [type, 'null'] });

const person = object({
  id: integer,
  employeeNo: integer,
  firstName: string,
  lastName: string,
  email: string,
  phone: string,
  department: string,
  status: string,
  hiredOn: string,
  version: integer,
  createdAt: string,
  updatedAt: string,
});

const payer = object({ id: integer, code: string, name: string, kind: string });

const appointment = object({
  id: integer,
  personId: integer,
  positionTitle: string,
  department: string,
  fte: number,
  startsOn: string,
  endsOn: nullable('string'),
  stipends: {
    type: 'array',
    items: object({
      id: integer,
      appointmentId: integer,
      payer,
      amountCents: integer,
      currency: string,
      startsOn: string,
      endsOn: nullable('string'),
    }),
  },
  fundings: {
    type: 'array',
    items: object({ appointmentId: integer, payer, percent: number }),
  },
});

const vacancy = object({
  id: integer,
  title: string,
  department: string,
  location: string,
  employmentType: string,
  salaryMinCents: integer,
  salaryMaxCents: integer,
  status: string,
  opensOn: string,
  closesOn: nullable('string'),
  description: string,
  filledBy: nullable('integer'),
  version: integer,
  createdAt: string,
  updatedAt: string,
});

const page = (item) => object({ items: { type: 'array', items: item }, nextCursor: nullable('string') });

export const personAnswer = person;
export const personDetailAnswer = object({
  ...person.properties,
  appointments: { type: 'array', items: appointment },
});
export const personPageAnswer = page(person);
export const vacancyAnswer = vacancy;
export const vacancyPageAnswer = page(vacancy);
export const loginAnswer = object({ token: string, expiresAt: string });
