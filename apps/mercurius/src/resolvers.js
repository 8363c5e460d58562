import { createResolvers } from '@crudbench/node-base/graphql/resolvers.js';

/**
 * resolvers are node-base's root fields' resolvers and the enums' values;
 * the nested fields are Mercurius loaders (loaders.js), wrapped by
 * translated so that the store's errors become GraphQL errors.
 */
export const { resolvers, translated } = createResolvers({ nested: false });
