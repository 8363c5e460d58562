import fp from 'fastify-plugin';
import { RequestError } from '@crudbench/node-base/errors.js';

/**
 * auth decorates the instance with two onRequest hooks for the routes to
 * list: authenticate lets a request through with a valid bearer token,
 * its claims in request.user, and answers 401 otherwise; requireEditor
 * lets only users whose role may write through.
 */
async function auth(fastify, { tokens }) {
  fastify.decorateRequest('user', null);

  fastify.decorate('authenticate', async function authenticate(request, reply) {
    const header = request.headers.authorization;
    if (!header) {
      throw new RequestError(401, 'log in first: POST /api/login, then send the token as Authorization: Bearer');
    }
    const space = header.indexOf(' ');
    const scheme = space < 0 ? header : header.slice(0, space);
    const token = space < 0 ? '' : header.slice(space + 1).trim();
    let detail = 'the token is not valid: log in again';
    if (scheme.toLowerCase() === 'bearer' && token !== '') {
      try {
        request.user = tokens.verify(token);
        return;
      } catch (err) {
        if (err.expired) detail = 'the token has expired: log in again';
      }
    }
    reply.header('WWW-Authenticate', 'Bearer realm="crudbench", error="invalid_token"');
    throw new RequestError(401, detail);
  });

  fastify.decorate('requireEditor', async function requireEditor(request) {
    if (request.user?.role !== 'editor') {
      throw new RequestError(403, 'your role may read but not change data');
    }
  });
}

export default fp(auth, { name: 'auth' });
