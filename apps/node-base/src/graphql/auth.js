import { bearerUser } from '../tokens.js';

// The user of a GraphQL request's token, whatever its engine: a field that
// needs one answers why the token was refused (graphql/schema.js).

/**
 * authenticate reads an Authorization header with tokens: { user } for a
 * valid bearer token, { tokenError } (the message a field needing a user
 * answers, graphql/schema.js) for another, nothing for none.
 */
export function authenticate(header, tokens) {
  if (!header) return {};
  const { user, refused } = bearerUser(header, tokens);
  return user ? { user } : { tokenError: refused };
}
