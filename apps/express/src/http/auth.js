import { bearerUser } from '@crudbench/node-base/tokens.js';
import { sendProblem } from './respond.js';

/**
 * authenticate lets a request through with a valid bearer token, putting
 * its claims in res.locals.user, and answers 401 otherwise.
 */
export function authenticate(tokens) {
  return (req, res, next) => {
    const header = req.get('Authorization');
    if (!header) {
      return sendProblem(req, res, 401, 'log in first: POST /api/login, then send the token as Authorization: Bearer');
    }
    const { user, refused } = bearerUser(header, tokens);
    if (user) {
      res.locals.user = user;
      return next();
    }
    res.set('WWW-Authenticate', 'Bearer realm="crudbench", error="invalid_token"');
    sendProblem(req, res, 401, refused);
  };
}

/** requireEditor lets only users whose role may write through. */
export function requireEditor(req, res, next) {
  if (res.locals.user?.role === 'editor') return next();
  sendProblem(req, res, 403, 'your role may read but not change data');
}
