import { bearerToken } from '../tokens.js';

// The user of a GraphQL request's token, whatever its engine: a field that
// needs one answers why the token was refused (graphql/schema.js).

/**
 * authenticate reads an Authorization header with tokens: { user } for a
 * valid bearer token, { tokenError } (the message a field needing a user
 * answers, graphql/schema.js) for another, nothing for none.
 */
export function authenticate(header, tokens) {
  if (!header) return {};
  const token = bearerToken(header);
  try {
    if (!token) throw new Error('not a bearer token');
    return { user: tokens.verify(token) };
  } catch (err) {
    return { tokenError: err.expired ? 'the token has expired: log in again' : 'the token is not valid: log in again' };
  }
}
