import { type ArgumentsHost, Catch, type ExceptionFilter, Inject, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { GqlContextType } from '@nestjs/graphql';
import { responseType } from '@crudbench/node-base/graphql/errors.js';
import { DEPS, type Deps } from './deps.js';

/**
 * ErrorFilter is the app's one exception filter. An error of a GraphQL
 * field goes back to the engine as the field's error: the engine's error
 * translator (node-base's graphql/apollo.js or graphql/mercurius.js) gives
 * it the Go app's code, or INTERNAL without details and logs it; Nest's
 * default would log every refusal (NOT_FOUND, FORBIDDEN, …) as an error
 * first. Outside GraphQL, a path the app does not serve is net/http's 404,
 * and anything else a 500 INTERNAL without details, logged.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(DEPS) private readonly deps: Deps,
  ) {}

  catch(error: unknown, host: ArgumentsHost) {
    if (host.getType<GqlContextType>() === 'graphql') return error;
    const { httpAdapter } = this.adapterHost;
    const http = host.switchToHttp();
    const res = http.getResponse();
    if (error instanceof NotFoundException) {
      httpAdapter.setHeader(res, 'Content-Type', 'text/plain; charset=utf-8');
      return httpAdapter.reply(res, '404 page not found\n', 404);
    }
    this.deps.logger.error({ err: error }, 'internal error');
    const accept = http.getRequest<{ headers: Record<string, string | undefined> }>().headers.accept;
    httpAdapter.setHeader(res, 'Content-Type', responseType(accept));
    return httpAdapter.reply(res, JSON.stringify({ errors: [{ message: 'internal error', extensions: { code: 'INTERNAL' } }] }), 500);
  }
}
