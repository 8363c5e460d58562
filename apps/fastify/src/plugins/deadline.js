import fp from 'fastify-plugin';

/**
 * deadline lets a handler the request deadline answered (Fastify's
 * handlerTimeout, set in app.js) end quietly. Its work goes on after the
 * 503 — node-postgres takes no abort signal; the statement timeout, the
 * same deadline, ends it — and Fastify would then log a late result as a
 * reply sent twice and a late failure at error level, once per request
 * while the database does not answer. The 503 was logged already.
 */
async function deadline(fastify) {
  fastify.addHook('onRoute', (route) => {
    const { handler } = route;
    route.handler = async function answeredInTime(request, reply) {
      try {
        const answer = await handler.call(this, request, reply);
        return reply.sent ? undefined : answer;
      } catch (err) {
        if (reply.sent) return undefined;
        throw err;
      }
    };
  });
}

export default fp(deadline, { name: 'deadline' });
