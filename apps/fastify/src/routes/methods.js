import { sendProblem } from '../plugins/problems.js';

/**
 * methodNotAllowed answers 405, with the methods url does take (allow),
 * for every other method Fastify routes.
 */
export function methodNotAllowed(fastify, url, allow) {
  fastify.route({
    method: fastify.supportedMethods.filter((m) => !allow.includes(m)),
    url,
    handler: (request, reply) => {
      reply.header('Allow', allow.join(', '));
      return sendProblem(request, reply, 405, `${request.method} is not allowed here`);
    },
  });
}
