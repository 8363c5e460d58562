// crudbench.v1.Staff over node-base's store: one handler a method, each
// wrapped by unary (the bearer token and role, the enums, the error
// translator), as the Go app's interceptors wrap its handlers.
import grpc from '@grpc/grpc-js';
import { AppError, ENOTFOUND, invalid as invalidInput } from '@crudbench/node-base/errors.js';
import { TokenError } from '@crudbench/node-base/tokens.js';
import { fieldNames, staffService, unknownEnums } from './proto.js';
import { StatusError, invalid, statusOf } from './status.js';
import { appointmentMessage, employmentType, int64, isDate, personMessage, timestamp, vacancyMessage, vacancyStatus } from './messages.js';

const { status: Code } = grpc;

// What a method asks of its caller: nothing (Login), a valid token, or a
// valid token with the editor role.
const OPEN = 'open';
const READER = 'reader';
const EDITOR = 'editor';

const PERSON_FIELDS = new Set(fieldNames('Person'));

// The store's names of request fields, renamed to the request's.
const personListFields = { q: 'query', after: 'page_token', limit: 'page_size' };
const vacancyListFields = { after: 'page_token', limit: 'page_size' };

/** bearerToken is the token of the call's "authorization: Bearer <token>" metadata (the scheme in any case), or "". */
function bearerToken(metadata) {
  const values = metadata.get('authorization');
  if (values.length !== 1 || typeof values[0] !== 'string') return '';
  const m = /^([^ ]+) (.*)$/s.exec(values[0]);
  return m && m[1].toLowerCase() === 'bearer' ? m[2].trim() : '';
}

/** idOf reads a request's id; one past 2^53 names no row (ids stay far below it). */
function idOf(s, what) {
  const id = int64(s);
  if (!Number.isSafeInteger(id)) throw new AppError(ENOTFOUND, `${what} ${s} not found`);
  return id;
}

/** pageSize is a request's page size for the store: 0 (unset) is the store's default. */
const pageSize = (n) => (n ? n : undefined);

/** date checks a request's date field, naming field (the store's name) when it is not a date. */
function date(field, s, { optional = false } = {}) {
  if (optional && s === undefined) return undefined;
  if (!isDate(s ?? '')) throw invalidInput({ [field]: 'must be a date of the form YYYY-MM-DD' });
  return s;
}

/** vacancyInput is a CreateVacancy's vacancy as the store's input; dates are checked first, as the Go app does. */
function vacancyInput(m = {}) {
  const opensOn = date('opensOn', m.opens_on);
  const closesOn = date('closesOn', m.closes_on, { optional: true });
  return {
    title: m.title ?? '',
    department: m.department ?? '',
    location: m.location ?? '',
    employmentType: employmentType.storeValue(m.employment_type ?? 0),
    salaryMinCents: int64(m.salary_min_cents),
    salaryMaxCents: int64(m.salary_max_cents),
    status: vacancyStatus.storeValue(m.status ?? 0),
    opensOn,
    closesOn,
    description: m.description ?? '',
    filledBy: m.filled_by === undefined ? undefined : int64(m.filled_by),
  };
}

/** vacancyPatch is an UpdateVacancy's set fields as the store's patch. */
function vacancyPatch(req) {
  const patch = {};
  const copy = (from, to, conv = (v) => v) => {
    if (req[from] !== undefined) patch[to] = conv(req[from]);
  };
  copy('title', 'title');
  copy('department', 'department');
  copy('location', 'location');
  copy('employment_type', 'employmentType', employmentType.storeValue);
  copy('salary_min_cents', 'salaryMinCents', int64);
  copy('salary_max_cents', 'salaryMaxCents', int64);
  copy('status', 'status', vacancyStatus.storeValue);
  copy('opens_on', 'opensOn', (s) => date('opensOn', s));
  copy('closes_on', 'closesOn', (s) => date('closesOn', s));
  copy('description', 'description');
  copy('filled_by', 'filledBy', int64);
  if (req.clear_closes_on) patch.closesOn = null;
  if (req.clear_filled_by) patch.filledBy = null;
  return patch;
}

/** maskFields is the set of Person fields a read mask keeps, null for none (all). */
function maskFields(mask) {
  const paths = mask?.paths ?? [];
  if (paths.length === 0) return null;
  for (const p of paths) {
    if (!PERSON_FIELDS.has(p)) throw invalidInput({ readMask: `has ${p}, which is not a field of Person` });
  }
  return new Set(paths);
}

/** trim keeps the fields of m that keep names; a null keep keeps all. */
function trim(m, keep) {
  if (keep === null) return m;
  return Object.fromEntries(Object.entries(m).filter(([k]) => keep.has(k)));
}

/**
 * staffHandlers returns the service's implementation for server.addService.
 * deps: { logger, persons, vacancies, users, tokens }.
 */
export function staffHandlers({ logger, persons, vacancies, users, tokens }) {
  /**
   * unary wraps one method: the token and role its access needs, the
   * enums of its request (a number the enum lacks is INVALID_ARGUMENT
   * naming the field, before the handler could read it as another
   * value), then the handler, whose failure statusOf translates with the
   * method's field names.
   */
  function unary(method, access, handler, rename = {}) {
    const requestType = staffService[method].requestType.type.name;
    return (call, callback) => {
      const answer = async () => {
        if (access !== OPEN) {
          let claims;
          try {
            claims = tokens.verify(bearerToken(call.metadata));
          } catch (err) {
            if (err instanceof TokenError && err.expired) {
              throw new StatusError(Code.UNAUTHENTICATED, 'the token has expired: log in again');
            }
            throw new StatusError(Code.UNAUTHENTICATED, 'send a valid token from Login as metadata authorization: Bearer <token>');
          }
          if (access === EDITOR && claims.role !== 'editor') {
            throw new StatusError(Code.PERMISSION_DENIED, 'your role may read but not change data');
          }
        }
        const bad = unknownEnums(requestType, call.request);
        if (bad) return { status: invalid(bad) };
        return { response: await handler(call.request, call) };
      };
      answer().then(
        ({ response, status }) => (status ? callback(status) : callback(null, response)),
        (err) => callback(statusOf(err, logger, rename)),
      );
    };
  }

  return {
    Login: unary('Login', OPEN, async (req, call) => {
      const user = await users.authenticate(req.username ?? '', req.password ?? '');
      const { token, expiresAt } = tokens.issue(user);
      // The REST app's Cache-Control: no-store, for proxies that cache.
      const headers = new grpc.Metadata();
      headers.set('cache-control', 'no-store');
      call.sendMetadata(headers);
      return { token, expires_at: timestamp(expiresAt) };
    }),

    GetPerson: unary('GetPerson', READER, async (req) => {
      const p = await persons.findDetail(idOf(req.id, 'person'));
      return { person: personMessage(p), appointments: p.appointments.map(appointmentMessage) };
    }),

    ListPersons: unary(
      'ListPersons',
      READER,
      async (req) => {
        const keep = maskFields(req.read_mask);
        const page = await persons.find({ search: req.query, after: req.page_token, limit: pageSize(req.page_size) });
        return { persons: page.items.map((p) => trim(personMessage(p), keep)), next_page_token: page.nextCursor ?? '' };
      },
      { names: personListFields },
    ),

    GetVacancy: unary('GetVacancy', READER, async (req) => vacancyMessage(await vacancies.findById(idOf(req.id, 'vacancy')))),

    ListVacancies: unary(
      'ListVacancies',
      READER,
      async (req) => {
        const page = await vacancies.find({
          status: vacancyStatus.storeValue(req.status ?? 0),
          after: req.page_token,
          limit: pageSize(req.page_size),
        });
        return { vacancies: page.items.map(vacancyMessage), next_page_token: page.nextCursor ?? '' };
      },
      { names: vacancyListFields },
    ),

    CreateVacancy: unary('CreateVacancy', EDITOR, async (req) => vacancyMessage(await vacancies.create(vacancyInput(req.vacancy))), {
      prefix: 'vacancy.',
    }),

    UpdateVacancy: unary('UpdateVacancy', EDITOR, async (req) => {
      const version = req.version ?? 0;
      if (version < 1) throw invalidInput({ version: 'is required: the version the change is based on' });
      const patch = vacancyPatch(req);
      return vacancyMessage(await vacancies.update(idOf(req.id, 'vacancy'), version, patch));
    }),

    DeleteVacancy: unary('DeleteVacancy', EDITOR, async (req) => {
      await vacancies.delete(idOf(req.id, 'vacancy'));
      return {};
    }),
  };
}
