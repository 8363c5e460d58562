import type {
  Claims,
  Logger,
  PersonReads,
  PersonWrites,
  Pool,
  TokenService,
  UserStore,
  VacancyStore,
} from '@crudbench/node-base/http/run.js';

// What the controllers, guards and filter are given, as Nest injects it:
// node-base's stores, tokens, pool and logger, made once per process by
// node-base's run and provided by AppModule under these classes, which
// serve as the injection tokens (an abstract class, merged with the
// interface of what it stands for).

/** Persons reads persons: a page, or one with everything nested. */
export abstract class Persons {}
export interface Persons extends PersonReads {}

/** PersonWriter creates, updates and deletes persons. */
export abstract class PersonWriter {}
export interface PersonWriter extends PersonWrites {}

/** Vacancies reads and writes vacancies. */
export abstract class Vacancies {}
export interface Vacancies extends VacancyStore {}

/** Users checks credentials. */
export abstract class Users {}
export interface Users extends UserStore {}

/** Tokens issues and verifies the session tokens every crudbench app shares. */
export abstract class Tokens {}
export interface Tokens extends TokenService {}

/** Database is the pool, for the readiness check's ping. */
export abstract class Database {}
export interface Database extends Pool {}

/** AppLogger is the app's logger, node-base's (pino, slog's field names). */
export abstract class AppLogger {}
export interface AppLogger extends Logger {}

/** Caller is who a request's token says sent it (BearerGuard puts it on the request). */
export type Caller = Claims;
