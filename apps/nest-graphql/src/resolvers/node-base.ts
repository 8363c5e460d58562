import { createResolvers } from '@crudbench/node-base/graphql/resolvers.js';

/**
 * Arguments are a field's arguments, as the resolver classes hand them on
 * whole: node-base's resolvers read and check them (an ID's digits, a
 * page's size), as in every GraphQL app.
 */
export type Arguments = Record<string, unknown>;

/**
 * resolvers are node-base's (graphql/resolvers.js), which the resolver
 * classes delegate to: the root fields on the stores, the nested ones on
 * the request's dataloaders, the store's errors translated into GraphQL
 * errors with the Go app's codes, and the enums' values.
 */
export const { resolvers } = createResolvers();
