import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { Observable, tap, timeout } from 'rxjs';

/**
 * DeadlineInterceptor ends every request still unanswered after ms with
 * rxjs's TimeoutError (a global interceptor: around the pipes that read
 * the body and the handler), which ProblemFilter answers 503 with
 * Retry-After, so that a client never waits on a database that does not
 * answer; the pool's statement timeout, the same deadline, ends the work
 * behind it.
 */
export class DeadlineInterceptor implements NestInterceptor {
  constructor(private readonly ms: number) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(timeout({ first: this.ms }));
  }
}

const LOCATION = 'crudbench:location';

/** Location marks a create: its answer names where the new row lives, prefix/{id}. */
export const Location = (prefix: string) => SetMetadata(LOCATION, prefix);

/**
 * VersionTag tells the client the version of the row a route answers, as
 * its ETag ("3", for the If-Match of its next update), and for a route
 * marked @Location, where the row lives.
 */
@Injectable()
export class VersionTag implements NestInterceptor {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler<{ id: number; version: number }>): Observable<unknown> {
    const response = context.switchToHttp().getResponse<unknown>();
    const http = this.adapterHost.httpAdapter;
    const location = this.reflector.get<string | undefined>(LOCATION, context.getHandler());
    return next.handle().pipe(
      tap((row) => {
        if (location) http.setHeader(response, 'Location', `${location}/${row.id}`);
        http.setHeader(response, 'ETag', `"${row.version}"`);
      }),
    );
  }
}
