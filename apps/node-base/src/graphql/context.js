import { bearerToken } from '../tokens.js';

// What a GraphQL app's request context and readiness read, whatever its
// engine: the user of the request's token, and whether the database
// answers.

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

/** ping reports whether the database of pool answers within 2 s: /readyz. */
export async function ping(pool) {
  try {
    await Promise.race([pool.query('SELECT 1'), new Promise((_, reject) => setTimeout(reject, 2000, new Error('ping timeout')).unref())]);
    return true;
  } catch {
    return false;
  }
}
