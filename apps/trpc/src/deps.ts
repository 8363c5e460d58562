// What the procedures stand on: node-base's stores, tokens and logger, as
// typed here (node-base is JavaScript). Every adapter that mounts the
// router — this app's standalone server, a Next.js route through the
// fetch adapter — passes the same.

/** User is a verified token's claims. */
export interface User {
  userId: number;
  username: string;
  role: 'viewer' | 'editor';
}

/** Page is one page of a list, as the REST contract has it. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Row is a row as the store answers it, in the REST contract's members. */
export type Row = Record<string, unknown>;

/**
 * VacancyInput is what a create or update sets; null clears closesOn or
 * filledBy. A create fills in what it leaves out (the store: Go's zero
 * values).
 */
export interface VacancyInput {
  title?: string;
  department?: string;
  location?: string;
  employmentType?: string;
  salaryMinCents?: number;
  salaryMaxCents?: number;
  status?: string;
  opensOn?: string;
  closesOn?: string | null;
  description?: string;
  filledBy?: number | null;
}

/** Deps are node-base's stores and tokens, made once per process. */
export interface Deps {
  logger: Logger;
  persons: {
    findDetail(id: number): Promise<Row>;
    find(page: { search?: string; after?: string; limit?: number }): Promise<Page<Row>>;
  };
  vacancies: {
    findById(id: number): Promise<Row>;
    find(page: { status?: string; after?: string; limit?: number }): Promise<Page<Row>>;
    create(v: VacancyInput): Promise<Row>;
    update(id: number, version: number, patch: VacancyInput): Promise<Row>;
    delete(id: number): Promise<void>;
  };
  users: {
    authenticate(username: string, password: string): Promise<{ id: number; username: string; role: string }>;
  };
  tokens: {
    issue(user: { id: number; username: string; role: string }): { token: string; expiresAt: Date };
    verify(token: string): User;
  };
  requestTimeoutMs: number;
}

/** Logger is the part of pino the app uses. */
export interface Logger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}
