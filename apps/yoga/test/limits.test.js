// The Go graphql app's limits, node-base's (test-kit/graphql-limits.js),
// kept by this app. Yoga's complexity count once walked the 2^22
// selections of a fragment spreading itself twice 22 levels deep for 31 s
// before refusing it; the suite's hostile documents hold it to the Go
// app's SELECTION_LIMIT_EXCEEDED.
import pino from 'pino';
import { describeGraphQLLimits, serveListener } from '@crudbench/node-base/test-kit/graphql-limits.js';
import { createApp } from '../src/app.js';
import { startApp } from './start.js';

describeGraphQLLimits('Yoga', {
  startApp,
  // Yoga's app is a request listener, served by node:http.
  listenWithoutDeadline: () => serveListener(createApp({ logger: pino({ enabled: false }), requestTimeoutMs: 0 })),
});
