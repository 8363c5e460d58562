import { bearerToken } from '@crudbench/node-base/tokens.js';
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
    const token = bearerToken(header);
    let detail = 'the token is not valid: log in again';
    if (token !== '') {
      try {
        res.locals.user = tokens.verify(token);
        return next();
      } catch (err) {
        if (err.expired) detail = 'the token has expired: log in again';
      }
    }
    res.set('WWW-Authenticate', 'Bearer realm="crudbench", error="invalid_token"');
    sendProblem(req, res, 401, detail);
  };
}

/** requireEditor lets only users whose role may write through. */
export function requireEditor(req, res, next) {
  if (res.locals.user?.role === 'editor') return next();
  sendProblem(req, res, 403, 'your role may read but not change data');
}
