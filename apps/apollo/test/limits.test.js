// The Go graphql app's limits, node-base's (test-kit/graphql-limits.js),
// kept by this app.
import pino from 'pino';
import { describeGraphQLLimits, serveListener } from '@crudbench/node-base/test-kit/graphql-limits.js';
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
    return serveListener(createApp({ apollo, logger, requestTimeoutMs: 0 }), () => apollo.stop());
  },
});
