// One error vocabulary for the whole app, the same codes the Go store uses;
// problem.js is the only place that turns them into HTTP answers.

export const EINVALID = 'invalid'; // bad input; fields names the offending fields
export const ENOTFOUND = 'not_found';
export const ECONFLICT = 'conflict'; // stale version or a duplicate unique value
export const EUNAUTHORIZED = 'unauthorized';
export const EUNAVAILABLE = 'unavailable'; // the database cannot be reached in time
export const EINTERNAL = 'internal'; // details are logged, never shown

/** AppError is a failure the client may be told about. */
export class AppError extends Error {
  constructor(code, message, { fields, cause } = {}) {
    super(message, { cause });
    this.code = code;
    this.fields = fields;
  }
}

export const invalid = (fields) => new AppError(EINVALID, 'invalid input', { fields });

/** staleVersion refuses an update based on a version that is no longer current. */
export const staleVersion = (what) =>
  new AppError(ECONFLICT, `the ${what} was changed by someone else; reload it and apply your change again`, {
    fields: { version: 'is stale: the current version is newer than the one sent' },
  });

/**
 * RequestError is a request this app refuses before it reaches the data
 * layer (bad body, bad path, missing version): it carries its own status.
 */
export class RequestError extends Error {
  constructor(status, detail, fields) {
    super(detail);
    this.status = status;
    this.fields = fields;
  }
}

export const badRequest = (detail, fields) => new RequestError(400, detail, fields);
