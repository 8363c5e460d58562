// The Go graphql app's limits, node-base's (test-kit/graphql-limits.js),
// kept by this app.
import http from 'node:http';
import pino from 'pino';
import { describeGraphQLLimits } from '@crudbench/node-base/test-kit/graphql-limits.js';
import { createApollo, createApp } from '../src/app.js';
import { startApp } from './start.js';

describeGraphQLLimits('Apollo', {
  startApp,
  // Apollo's server is started before its request listener is made, and
  // stopped after node:http is closed.
  async listenWithoutDeadline() {
    const logger = pino({ enabled: false });
    const apollo = createApollo({ logger });
    await apollo.start();
    const server = http.createServer(createApp({ apollo, logger, requestTimeoutMs: 0 }));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${server.address().port}`,
      async close() {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        await apollo.stop();
      },
    };
  },
});
