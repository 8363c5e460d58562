import { createResolvers } from '@crudbench/node-base/graphql/resolvers.js';

/**
 * resolvers are node-base's, the nested fields through the request's
 * dataloaders (node-base's graphql/context.js, made in Apollo's context
 * function);
 * UNAVAILABLE's 503 is the response's (node-base's graphql/apollo.js).
 */
export const { resolvers } = createResolvers();
