import { ExecutionContext, Injectable, NotFoundException, PipeTransform, createParamDecorator } from '@nestjs/common';
import { Id, pathId, queryParam } from '@crudbench/node-base/http/params.js';
import type { ParsedUrlQuery } from 'node:querystring';
import { rawRequest } from './body.js';

// The path's id and the query are read by node-base's rules, the Go
// store's: Nest's ParseIntPipe would take " 7" and lose digits past 2^53.

/**
 * IdPipe reads the id in the path, a positive int64. An empty one (Fastify
 * routes /api/persons/ to /api/persons/:id) names nothing: 404, as the Go
 * router answers that path.
 */
@Injectable()
export class IdPipe implements PipeTransform<string, Id> {
  transform(raw: string): Id {
    if (raw === '') throw new NotFoundException();
    return pathId(raw);
  }
}

/** QueryParam is a route parameter: the first value of the query parameter name, or undefined. */
export const QueryParam = createParamDecorator((name: string, context: ExecutionContext) => {
  const { query } = context.switchToHttp().getRequest<{ query: ParsedUrlQuery }>();
  return queryParam(query, rawRequest(context).url ?? '', name);
});
