// The one translator from the store's errors to gRPC statuses, as the Go
// grpc app's errors.go: the codes map one to one, bad input carries a
// google.rpc.BadRequest naming each field by its path in the request
// (snake_case), UNAVAILABLE a google.rpc.RetryInfo, both in the
// grpc-status-details-bin trailer as a google.rpc.Status; internal details
// go to the log, never to the client.
import grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { AppError, ECONFLICT, EINVALID, ENOTFOUND, EUNAUTHORIZED, EUNAVAILABLE, RequestError } from '@crudbench/node-base/errors.js';

const { status: Code } = grpc;

/** RETRY_DELAY_SECONDS is RetryInfo's delay: the HTTP apps' Retry-After. */
export const RETRY_DELAY_SECONDS = 5;

// The messages of googleapis' google/rpc/status.proto and
// error_details.proto that the app sends, with their field numbers (the
// wire format is all a client reads).
const rpc = protobuf.Root.fromJSON({
  nested: {
    google: {
      nested: {
        protobuf: {
          nested: {
            Any: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } },
            Duration: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
          },
        },
        rpc: {
          nested: {
            Status: {
              fields: {
                code: { type: 'int32', id: 1 },
                message: { type: 'string', id: 2 },
                details: { rule: 'repeated', type: 'google.protobuf.Any', id: 3 },
              },
            },
            BadRequest: {
              fields: { field_violations: { rule: 'repeated', type: 'FieldViolation', id: 1 } },
              nested: {
                FieldViolation: { fields: { field: { type: 'string', id: 1 }, description: { type: 'string', id: 2 } } },
              },
            },
            RetryInfo: { fields: { retry_delay: { type: 'google.protobuf.Duration', id: 1 } } },
          },
        },
      },
    },
  },
});
const StatusType = rpc.lookupType('google.rpc.Status');
const BadRequest = rpc.lookupType('google.rpc.BadRequest');
const RetryInfo = rpc.lookupType('google.rpc.RetryInfo');
export const rpcTypes = { Status: StatusType, BadRequest, RetryInfo };

/** withDetail is a status object (as a handler's callback and sendStatus take it) with one detail. */
function withDetail(code, details, type, value) {
  const any = { type_url: `type.googleapis.com/${type.fullName.slice(1)}`, value: type.encode(type.fromObject(value)).finish() };
  const metadata = new grpc.Metadata();
  metadata.set('grpc-status-details-bin', Buffer.from(StatusType.encode({ code, message: details, details: [any] }).finish()));
  return { code, details, metadata };
}

/** unavailable is the status of the database away or too slow, with RetryInfo. */
export const unavailable = (details) =>
  withDetail(Code.UNAVAILABLE, details, RetryInfo, { retry_delay: { seconds: RETRY_DELAY_SECONDS, nanos: 0 } });

/** snakeCase turns "salaryMinCents" into "salary_min_cents"; a path keeps its dots. */
export const snakeCase = (s) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * invalid is the INVALID_ARGUMENT status of fields (path → message),
 * violations in the order of their paths, as the Go app sorts them.
 */
export function invalid(fields, details = 'invalid input') {
  const field_violations = Object.keys(fields)
    .sort()
    .map((field) => ({ field, description: fields[field] }));
  return withDetail(Code.INVALID_ARGUMENT, details, BadRequest, { field_violations });
}

/** StatusError is a status a handler throws as it is (authentication, permission). */
export class StatusError extends Error {
  constructor(code, details) {
    super(details);
    this.code = code;
    this.details = details;
  }
}

/**
 * statusOf turns what a handler threw into the status the client gets.
 * names renames the store's fields to the request's ({ after:
 * 'page_token' }), and the rest are put under prefix ("vacancy.") in
 * snake_case. A stale version is ABORTED: the client reads again and
 * retries the whole change (AIP-193).
 */
export function statusOf(err, logger, { prefix = '', names = {} } = {}) {
  if (err instanceof StatusError) return { code: err.code, details: err.details };
  const rename = (fields) => Object.fromEntries(Object.entries(fields ?? {}).map(([k, v]) => [names[k] ?? snakeCase(prefix + k), v]));
  if (err instanceof RequestError) return invalid(rename(err.fields));
  if (err instanceof AppError) {
    switch (err.code) {
      case EINVALID:
        return invalid(rename(err.fields), err.message);
      case ENOTFOUND:
        return { code: Code.NOT_FOUND, details: err.message };
      case ECONFLICT:
        return { code: Code.ABORTED, details: err.message };
      case EUNAUTHORIZED:
        return { code: Code.UNAUTHENTICATED, details: err.message };
      case EUNAVAILABLE:
        logger.warn({ err: err.cause?.message ?? err.message }, 'database unavailable');
        return unavailable(err.message);
    }
  }
  logger.error({ err: String(err?.cause ?? err), stack: err?.stack }, 'internal error');
  return { code: Code.INTERNAL, details: 'internal error' };
}
