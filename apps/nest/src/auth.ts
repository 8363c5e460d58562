import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { IncomingHttpHeaders } from 'node:http';
import { RequestError } from '@crudbench/node-base/errors.js';
import { bearerUser } from '@crudbench/node-base/tokens.js';
import { Caller, Tokens } from './dependencies.js';

// Every route needs a valid session but those marked @Public() (health,
// login, the API's description); writes need the editor role (@Editor()).
// Both are global guards (AppModule), in this order.

const PUBLIC = 'crudbench:public';
const EDITOR = 'crudbench:editor';

/** Public marks a route, or a controller's every route, that needs no token. */
export const Public = () => SetMetadata(PUBLIC, true);

/** Editor marks a route that only the editor role may call: a write. */
export const Editor = () => SetMetadata(EDITOR, true);

/** CHALLENGE is the WWW-Authenticate of a 401 (with error="invalid_token" for a token refused). */
export const CHALLENGE = 'Bearer realm="crudbench"';

/** Unauthenticated is a 401: no token, or one refused; challenge is its WWW-Authenticate. */
export class Unauthenticated extends RequestError {
  constructor(
    detail: string,
    readonly challenge = CHALLENGE,
  ) {
    super(401, detail);
  }
}

type AuthenticatedRequest = { headers: IncomingHttpHeaders; user?: Caller };

/**
 * BearerGuard lets a request through with a valid Authorization: Bearer
 * token, its claims in request.user, and refuses it with a 401 otherwise.
 */
@Injectable()
export class BearerGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: Tokens,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    if (!header) throw new Unauthenticated('log in first: POST /api/login, then send the token as Authorization: Bearer');
    const { user, refused } = bearerUser(header, this.tokens);
    if (refused !== undefined) throw new Unauthenticated(refused, `${CHALLENGE}, error="invalid_token"`);
    request.user = user;
    return true;
  }
}

/** EditorGuard lets only the editor role through to a route marked @Editor(), and refuses others with a 403. */
@Injectable()
export class EditorGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.reflector.getAllAndOverride<boolean>(EDITOR, [context.getHandler(), context.getClass()])) return true;
    if (context.switchToHttp().getRequest<AuthenticatedRequest>().user?.role === 'editor') return true;
    throw new RequestError(403, 'your role may read but not change data');
  }
}
