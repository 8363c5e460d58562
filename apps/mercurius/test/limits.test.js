// The Go graphql app's limits, node-base's (test-kit/graphql-limits.js),
// kept by this app.
import pino from 'pino';
import { describeGraphQLLimits } from '@crudbench/node-base/test-kit/graphql-limits.js';
import { createApp } from '../src/app.js';
import { startApp } from './start.js';

describeGraphQLLimits('Mercurius', {
  startApp,
  // Mercurius's app is a Fastify instance, which listens and closes itself.
  async listenWithoutDeadline() {
    const app = createApp({ logger: pino({ enabled: false }), requestTimeoutMs: 0 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `http://127.0.0.1:${app.server.address().port}`, close: () => app.close() };
  },
});
