import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';

// The session token every crudbench app shares (apps/internal/auth): HS256,
// issuer "crudbench", sub the user id as a decimal string, name and role,
// iat and exp in whole seconds. A token from any app verifies in any other
// that has the same secret.

const ISSUER = 'crudbench';
const ROLES = ['viewer', 'editor'];
const LEEWAY_SECONDS = 5; // small clock differences between app replicas

export class TokenError extends Error {
  constructor(message, { expired = false } = {}) {
    super(message);
    this.expired = expired;
  }
}

/**
 * bearerToken returns the token of an Authorization header of the Bearer
 * scheme (the scheme in any case, the token trimmed), '' for a header of
 * another scheme or without a token.
 */
export function bearerToken(header) {
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return '';
  return header.slice(space + 1).trim();
}

/**
 * bearerUser reads an Authorization header that was sent with tokens:
 * { user }, the claims of a valid bearer token, or { refused }, why the
 * header was refused, in the Go apps' words — what every app's check of
 * a session answers (each its own way for a request without a header).
 */
export function bearerUser(header, tokens) {
  const token = bearerToken(header);
  if (token !== '') {
    try {
      return { user: tokens.verify(token) };
    } catch (err) {
      if (err.expired) return { refused: 'the token has expired: log in again' };
    }
  }
  return { refused: 'the token is not valid: log in again' };
}

/** createTokens issues and verifies tokens with one secret and lifetime. */
export function createTokens(secret, ttlMs) {
  // The secret as a KeyObject, made once, as the Go apps make their key
  // once: given a string (or a Buffer), jsonwebtoken first tries it as a
  // PEM public key on every call, which throws and builds an error before
  // it falls back to a secret key — a third of Express's CPU per request
  // in a profile at 400 req/s.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return {
    /** issue returns { token, expiresAt } for the user. */
    issue({ id, username, role }) {
      const now = Math.floor(Date.now() / 1000);
      const exp = now + Math.floor(ttlMs / 1000);
      const token = jwt.sign({ name: username, role, iss: ISSUER, sub: String(id), exp, iat: now }, key, {
        algorithm: 'HS256',
      });
      return { token, expiresAt: new Date(exp * 1000) };
    },

    /** verify returns { userId, username, role } or throws a TokenError. */
    verify(token) {
      let claims;
      try {
        // Pinning the algorithm blocks "none" and key-confusion attacks.
        claims = jwt.verify(token, key, { algorithms: ['HS256'], issuer: ISSUER, clockTolerance: LEEWAY_SECONDS });
      } catch (err) {
        throw new TokenError(err.message, { expired: err.name === 'TokenExpiredError' });
      }
      const now = Date.now() / 1000;
      if (typeof claims.exp !== 'number') throw new TokenError('token has no expiry');
      if (claims.iat !== undefined && !(claims.iat <= now + LEEWAY_SECONDS)) throw new TokenError('token used before issued');
      if (typeof claims.sub !== 'string' || !/^\d+$/.test(claims.sub)) throw new TokenError('subject is not a user id');
      if (!ROLES.includes(claims.role)) throw new TokenError(`unknown role ${JSON.stringify(claims.role)}`);
      return { userId: Number(claims.sub), username: claims.name, role: claims.role };
    },
  };
}
