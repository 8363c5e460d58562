// The test harness is node-base's (test-kit/app.js): the app, as tsc built
// it into dist/ (npm test builds it first), run as its own process against
// the real database, on either platform.
import { appStarter } from '@crudbench/node-base/test-kit/app.js';

export { DATABASE_URL, devToken, restLogin as login } from '@crudbench/node-base/test-kit/app.js';

const dist = new URL('../dist/', import.meta.url);

/** startApp runs dist/main.js on Nest's Express platform on a free port and resolves once it listens: { url, logs, stop }. */
export const startApp = appStarter(dist);

/** startFastifyApp runs it on Nest's Fastify platform (NEST_PLATFORM=fastify), the nest-fastify row. */
export const startFastifyApp = appStarter(dist, { baseEnv: { NEST_PLATFORM: 'fastify' } });

/** platforms are the two rows of the app, each with its starter. */
export const platforms = [
  ['nest', startApp],
  ['nest-fastify', startFastifyApp],
];
