import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Injectable, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { TimeoutError } from 'rxjs';
import {
  AppError,
  ECONFLICT,
  EINVALID,
  ENOTFOUND,
  EUNAUTHORIZED,
  EUNAVAILABLE,
  RequestError,
  type Fields,
} from '@crudbench/node-base/errors.js';
import { RETRY_AFTER } from '@crudbench/node-base/http/server.js';
import { CHALLENGE, Unauthenticated } from '../auth.js';
import { AppLogger } from '../dependencies.js';

// The one place errors become answers: RFC 9457 problem documents, as the
// Go rest app writes them.

export const PROBLEM_JSON = 'application/problem+json';

// Go's net/http names a few statuses differently from Node; the Go names
// win so that every app sends the same problem titles.
const TITLES: Record<number, string | undefined> = { ...STATUS_CODES, 413: 'Request Entity Too Large' };

const STATUS_OF: Record<string, number> = {
  [ENOTFOUND]: 404,
  [ECONFLICT]: 409,
  [EUNAUTHORIZED]: 401,
  [EUNAVAILABLE]: 503,
};

export const NOTHING_HERE = 'nothing lives at this path; the API is described at /openapi.yaml';

/** Problem is an RFC 9457 problem document, its members in the Go app's order. */
export interface Problem {
  type: 'about:blank';
  title: string | undefined;
  status: number;
  detail?: string;
  instance: string;
  fields?: Fields;
}

/** problemOf returns the problem for status; instance is the path as the client sent it. */
export function problemOf(status: number, instance: string, detail?: string, fields?: Fields): Problem {
  const problem: Problem = { type: 'about:blank', title: TITLES[status], status, ...(detail ? { detail } : {}), instance };
  // Sorted like Go's encoder sorts a map's keys: the same bytes as the Go app.
  if (fields && Object.keys(fields).length > 0) {
    problem.fields = Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)));
  }
  return problem;
}

/**
 * writeProblem answers on the node:http response itself, for what
 * node-base's server answers before the platform runs (a body that did not
 * arrive in time, an error no one caught).
 */
export function writeProblem(req: IncomingMessage, res: ServerResponse, status: number, detail?: string): void {
  const body = `${JSON.stringify(problemOf(status, (req.url ?? '/').split('?')[0], detail))}\n`;
  res.writeHead(status, { 'Content-Type': PROBLEM_JSON, 'Content-Length': Buffer.byteLength(body) }).end(body);
}

/** MethodNotAllowed is a 405, with the methods the path does take. */
export class MethodNotAllowed extends RequestError {
  constructor(
    method: string,
    readonly allow: string,
  ) {
    super(405, `${method} is not allowed here`);
  }
}

interface Answer {
  status: number;
  detail?: string;
  fields?: Fields;
}

/**
 * ProblemFilter answers every error (a global filter): the codes of
 * node-base's vocabulary map to a status and their message, the deadline's
 * timeout to 503 with Retry-After, a path no route serves to 404; anything
 * else is logged and answered 500 without details.
 */
@Catch()
@Injectable()
export class ProblemFilter implements ExceptionFilter {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly logger: AppLogger,
  ) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const http = this.adapterHost.httpAdapter;
    const request = host.switchToHttp().getRequest<unknown>();
    const response = host.switchToHttp().getResponse<unknown>();
    // Answered already: by the deadline, whose handler failed after it.
    if (http.isHeadersSent(response)) return;
    const method = http.getRequestMethod(request);
    const path = http.getRequestUrl(request).split('?')[0];
    const { status, detail, fields } = this.answer(err, method, path);
    if (status === 401) http.setHeader(response, 'WWW-Authenticate', err instanceof Unauthenticated ? err.challenge : CHALLENGE);
    if (status === 405 && err instanceof MethodNotAllowed) http.setHeader(response, 'Allow', err.allow);
    if (status === 503) http.setHeader(response, 'Retry-After', RETRY_AFTER);
    http.setHeader(response, 'Content-Type', PROBLEM_JSON);
    http.reply(response, problemOf(status, path, detail, fields), status);
  }

  private answer(err: unknown, method: string, path: string): Answer {
    if (err instanceof RequestError) return { status: err.status, detail: err.message, fields: err.fields };
    if (err instanceof AppError && err.code === EINVALID) {
      // A bad query (GET) or path (DELETE) is the request's fault, a bad body is not well-formed data.
      const status = method === 'GET' || method === 'HEAD' || method === 'DELETE' ? 400 : 422;
      return { status, detail: err.message, fields: err.fields };
    }
    if (err instanceof AppError && STATUS_OF[err.code]) {
      if (err.code === EUNAVAILABLE) this.logger.warn({ err: err.cause ?? err, method, path }, 'database unavailable');
      return { status: STATUS_OF[err.code], detail: err.message, fields: err.fields };
    }
    if (err instanceof TimeoutError) {
      // The request's deadline (DeadlineInterceptor), as the Go apps' 503.
      this.logger.warn({ method, path }, 'database unavailable');
      return { status: 503, detail: 'the database did not answer in time' };
    }
    if (err instanceof NotFoundException) return { status: 404, detail: NOTHING_HERE };
    // Express's router could not decode a path parameter (%zz): the client's path.
    if (err instanceof URIError) return { status: 400, detail: 'the path is not valid percent-encoding' };
    // The platform's own refusals of a request it could not route or read
    // (a path that is not percent-encoded right): their status, no internals.
    if (err instanceof HttpException && err.getStatus() >= 400 && err.getStatus() < 500) return { status: err.getStatus() };
    this.logger.error({ err, method, path }, 'internal error');
    return { status: 500 };
  }
}
