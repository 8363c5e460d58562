import { CanActivate, ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { RequestError } from '@crudbench/node-base/errors.js';
import { UNSUPPORTED_MEDIA_TYPE, decodeBody, isJSON, readBody } from '@crudbench/node-base/http/json.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';

// A request body is read here, inside Nest's pipeline, the same on both
// platforms (neither parses one: main.ts turns their parsers off), and
// decoded by node-base's decodeBody: the media type, UTF-8, one JSON
// object, only the members its shape names, each of its type, in the Go
// app's words.

/** MemberType is the type of a body member: JSON string, integer of 32 or 64 bits, or date (YYYY-MM-DD). */
export type MemberType = 'string' | 'int32' | 'int64' | 'date';

/** Shape is a request body's members and their types: what a DTO class is elsewhere. */
export type Shape = Record<string, MemberType>;

/**
 * Decoded is the body a Shape describes: each member optional (absent or
 * null), and nulls, the members sent as null, so that an update can tell
 * "clear" from "leave".
 */
export type Decoded<S extends Shape> = { [K in keyof S]?: S[K] extends 'int32' | 'int64' ? number : string } & {
  readonly nulls: readonly (keyof S & string)[];
};

/** rawRequest is the node:http request under the platform's (Express's is one, Fastify's holds it as raw). */
export function rawRequest(context: ExecutionContext): IncomingMessage {
  const request = context.switchToHttp().getRequest<IncomingMessage & { raw?: IncomingMessage }>();
  return request.raw ?? request;
}

/**
 * JsonBody is a route parameter: the request's JSON body decoded following
 * shape, or a refusal — 415 for another media type, 413 past 1 MiB, 400
 * for anything decodeBody refuses.
 */
export const JsonBody = createParamDecorator(async (shape: Shape, context: ExecutionContext) => {
  const req = rawRequest(context);
  if (!isJSON(req.headers['content-type'])) throw new RequestError(415, UNSUPPORTED_MEDIA_TYPE);
  return decodeBody(await readBody(req), shape);
});

/**
 * BodyLimitGuard refuses a body that declares more than 1 MiB before
 * anything else runs (a global guard, the first), as the Go apps do,
 * without reading it.
 */
@Injectable()
export class BodyLimitGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (Number(rawRequest(context).headers['content-length']) > MAX_BODY_BYTES) {
      throw new RequestError(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
    }
    return true;
  }
}
