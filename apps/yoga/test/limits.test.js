// The Go graphql app's limits, node-base's (test-kit/graphql-limits.js),
// kept by this app. Yoga's complexity count once walked the 2^22
// selections of a fragment spreading itself twice 22 levels deep for 31 s
// before refusing it; the suite's hostile documents hold it to the Go
// app's SELECTION_LIMIT_EXCEEDED.
import http from 'node:http';
import pino from 'pino';
import { describeGraphQLLimits } from '@crudbench/node-base/test-kit/graphql-limits.js';
import { createApp } from '../src/app.js';
import { startApp } from './start.js';

describeGraphQLLimits('Yoga', {
  startApp,
  // Yoga's app is a request listener, served by node:http.
  async listenWithoutDeadline() {
    const server = http.createServer(createApp({ logger: pino({ enabled: false }), requestTimeoutMs: 0 }));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${server.address().port}`,
      async close() {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  },
});
