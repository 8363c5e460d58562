import { createResolvers } from '@crudbench/node-base/graphql/resolvers.js';
import { RETRY_AFTER } from '@crudbench/node-base/http/server.js';

/**
 * resolvers are node-base's, the nested fields through the request's
 * dataloaders (node-base's graphql/context.js); UNAVAILABLE carries its 503 and Retry-After
 * for Yoga's response.
 */
export const { resolvers } = createResolvers({
  unavailable: () => ({ http: { status: 503, headers: { 'Retry-After': RETRY_AFTER } } }),
});
