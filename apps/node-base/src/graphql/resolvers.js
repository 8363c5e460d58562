import { GraphQLError } from 'graphql';
import { AppError, EINVALID, ENOTFOUND, ECONFLICT, EUNAUTHORIZED, EUNAVAILABLE } from '../errors.js';

// The GraphQL apps' resolvers, which no engine changes: the root fields
// and the nested ones on the store's readers (persons.js, the stores) and
// the request's dataloaders, and the one translation of the store's errors.

// GraphQL enums are upper case; the database's values are lower case.
const lower = (names) => Object.fromEntries(names.map((n) => [n, n.toLowerCase()]));

const CODES = {
  [EINVALID]: 'BAD_USER_INPUT',
  [ENOTFOUND]: 'NOT_FOUND',
  [ECONFLICT]: 'CONFLICT',
  [EUNAUTHORIZED]: 'UNAUTHENTICATED',
  [EUNAVAILABLE]: 'UNAVAILABLE',
};

const MAX_INT64 = 2n ** 63n - 1n;

/**
 * id reads an ID argument: a positive int64 written in digits. One past
 * 2^53 is passed on as its digits: a Number would round it.
 */
function id(raw, field = 'id') {
  const s = String(raw);
  const n = Number(s);
  if (/^\d{1,15}$/.test(s) && n >= 1) return n;
  if (!/^\d{16,19}$/.test(s) || BigInt(s) < 1n || BigInt(s) > MAX_INT64) {
    throw new AppError(EINVALID, 'invalid input', { fields: { [field]: 'must be a positive whole number' } });
  }
  return Number.isSafeInteger(n) ? n : s;
}

const page = ({ items, nextCursor }) => ({ nodes: items, pageInfo: { endCursor: nextCursor, hasNextPage: nextCursor !== null } });

const VACANCY_FIELDS = [
  'title',
  'department',
  'location',
  'employmentType',
  'salaryMinCents',
  'salaryMaxCents',
  'status',
  'opensOn',
  'description',
];

/** vacancyPatch keeps what the patch sets; only closesOn and filledBy clear with null. */
function vacancyPatch(input) {
  const patch = {};
  for (const k of VACANCY_FIELDS) if (input[k] != null) patch[k] = input[k];
  if (input.closesOn !== undefined) patch.closesOn = input.closesOn;
  if (input.filledBy !== undefined) patch.filledBy = input.filledBy === null ? null : id(input.filledBy, 'filledBy');
  return patch;
}

/**
 * createResolvers returns { resolvers, translated }: the schema's
 * resolvers (the enums, Query and Mutation, and unless nested is false the
 * nested fields through the request's dataloaders, ctx.loaders), and
 * translated, which wraps a resolver or loader so that the store's errors
 * become GraphQL errors: the codes a client may know keep their message
 * (invalid fields in extensions.fields); anything else is left to the
 * engine's masking (INTERNAL, details only in the log). unavailable()
 * returns what UNAVAILABLE's extensions add (Yoga's HTTP status for it).
 */
export function createResolvers({ nested = true, unavailable = () => ({}) } = {}) {
  const toGraphQLError = (err) => {
    if (!(err instanceof AppError) || !CODES[err.code]) return err;
    const extensions = { code: CODES[err.code] };
    if (err.code === EINVALID && err.fields) extensions.fields = err.fields;
    if (err.code === EUNAVAILABLE) Object.assign(extensions, unavailable());
    return new GraphQLError(err.message, { extensions, originalError: err });
  };
  const translated =
    (resolve) =>
    async (...args) => {
      try {
        return await resolve(...args);
      } catch (err) {
        throw toGraphQLError(err);
      }
    };

  const resolvers = {
    Role: lower(['VIEWER', 'EDITOR']),
    PersonStatus: lower(['ACTIVE', 'ON_LEAVE', 'FORMER']),
    PayerKind: lower(['GRANT', 'DEPARTMENT', 'EXTERNAL']),
    EmploymentType: lower(['FULL_TIME', 'PART_TIME', 'CONTRACT']),
    VacancyStatus: lower(['DRAFT', 'OPEN', 'CLOSED', 'FILLED']),

    Query: {
      person: translated((_, args, { persons }) => persons.findById(id(args.id))),
      // first: null is first not given, as in the Go app (gqlgen's *int32):
      // the default page.
      persons: translated(async (_, { first, after, search }, { persons }) =>
        page(await persons.find({ limit: first ?? undefined, after, search })),
      ),
      vacancy: translated((_, args, { vacancies }) => vacancies.findById(id(args.id))),
      vacancies: translated(async (_, { status, first, after }, { vacancies }) =>
        page(await vacancies.find({ status, limit: first ?? undefined, after, limitField: 'first' })),
      ),
    },

    Mutation: {
      login: translated(async (_, { username, password }, { users, tokens }) => {
        const user = await users.authenticate(username, password);
        const { token, expiresAt } = tokens.issue(user);
        return { token, expiresAt: expiresAt.toISOString().replace('.000Z', 'Z'), user };
      }),
      createPerson: translated((_, { input }, { personWriter }) => personWriter.create(input)),
      updatePerson: translated((_, args, { personWriter }) => {
        // null on a person field leaves it as it is (the schema says so).
        const patch = Object.fromEntries(Object.entries(args.input).filter(([, v]) => v != null));
        return personWriter.update(id(args.id), args.version, patch);
      }),
      deletePerson: translated(async (_, args, { personWriter }) => {
        await personWriter.delete(id(args.id));
        return true;
      }),
      createVacancy: translated((_, { input }, { vacancies }) =>
        vacancies.create({ ...input, filledBy: input.filledBy == null ? null : id(input.filledBy, 'filledBy') }),
      ),
      updateVacancy: translated((_, args, { vacancies }) => vacancies.update(id(args.id), args.version, vacancyPatch(args.input))),
      deleteVacancy: translated(async (_, args, { vacancies }) => {
        await vacancies.delete(id(args.id));
        return true;
      }),
    },
  };
  if (nested) {
    Object.assign(resolvers, {
      Person: {
        appointments: translated((p, _, { loaders }) => loaders.appointments.load(p.id)),
      },
      Appointment: {
        person: translated((a, _, { loaders }) => loaders.person.load(a.personId)),
        stipends: translated((a, _, { loaders }) => loaders.stipends.load(a.id)),
        fundings: translated((a, _, { loaders }) => loaders.fundings.load(a.id)),
      },
      Vacancy: {
        filledByPerson: translated((v, _, { loaders }) => (v.filledBy == null ? null : loaders.person.load(v.filledBy))),
      },
    });
  }
  return { resolvers, translated };
}
