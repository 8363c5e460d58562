// The Go graphql app's limits, node-base's (test-kit/graphql-limits.js),
// kept by this app with each driver.
import pino from 'pino';
import { describeGraphQLLimits } from '@crudbench/node-base/test-kit/graphql-limits.js';
import { createApp } from '../dist/app.js';
import { DRIVERS, starterOf } from './start.js';

for (const [name, driver] of DRIVERS) {
  describeGraphQLLimits(name, {
    startApp: starterOf(driver),
    // The Nest app in this process, on its platform's own server, with a
    // request deadline of 0 ms: no request reaches the database.
    async listenWithoutDeadline() {
      const app = await createApp(driver, { logger: pino({ enabled: false }), requestTimeoutMs: 0 });
      await app.listen(0, '127.0.0.1');
      return { url: `http://127.0.0.1:${app.getHttpServer().address().port}`, close: () => app.close() };
    },
  });
}
