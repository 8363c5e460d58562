import { authenticate } from '@crudbench/node-base/graphql/context.js';
import type { Deps } from './deps.js';
import { createLoaders } from './loaders.js';

/**
 * RequestContext is a GraphQL request's context, which node-base's
 * resolvers read: the stores and tokens, the request's dataloaders, its
 * deadline (a performance.now() time) and signal (aborted when the client
 * leaves) for the document limits, and the user of its token, or why the
 * token was refused.
 */
export type RequestContext = ReturnType<typeof requestContext>;

/** requestContext is the context of a request with this Authorization header and these bounds. */
export function requestContext(deps: Deps, authorization: string | undefined, bounds: { deadline: number; signal?: AbortSignal }) {
  const { persons, personWriter, vacancies, users, tokens } = deps;
  return {
    persons,
    personWriter,
    vacancies,
    users,
    tokens,
    loaders: createLoaders(persons),
    ...bounds,
    ...authenticate(authorization, tokens),
  };
}
