import { loginAnswer, loginBody } from '../schemas.js';
import { methodNotAllowed } from './methods.js';

/** login serves POST /api/login: credentials in, a token out. */
export default async function login(fastify, { users, tokens }) {
  fastify.post('/login', { schema: { body: loginBody, response: { 200: loginAnswer } } }, async (request, reply) => {
    const { username, password } = request.body;
    const user = await users.authenticate(username ?? '', password ?? '');
    const { token, expiresAt } = tokens.issue(user);
    reply.header('Cache-Control', 'no-store');
    return { token, expiresAt: expiresAt.toISOString().replace('.000Z', 'Z') };
  });
  methodNotAllowed(fastify, '/login', ['POST']);
}
