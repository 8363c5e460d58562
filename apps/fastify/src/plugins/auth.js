import fp from 'fastify-plugin';
import { RequestError } from '@crudbench/node-base/errors.js';
import { bearerUser } from '@crudbench/node-base/tokens.js';

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
    const { user, refused } = bearerUser(header, tokens);
    if (user) {
      request.user = user;
      return;
    }
    reply.header('WWW-Authenticate', 'Bearer realm="crudbench", error="invalid_token"');
    throw new RequestError(401, refused);
  });

  fastify.decorate('requireEditor', async function requireEditor(request) {
    if (request.user?.role !== 'editor') {
      throw new RequestError(403, 'your role may read but not change data');
    }
  });
}

export default fp(auth, { name: 'auth' });
