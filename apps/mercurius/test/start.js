// The test harness is node-base's (test-kit/app.js): the app run as its
// own process against the real database, and a GraphQL client of it.
import { appStarter } from '@crudbench/node-base/test-kit/app.js';

export { DATABASE_URL, devToken, gql, graphqlLogin as login } from '@crudbench/node-base/test-kit/app.js';

/** startApp runs src/main.js on a free port and resolves once it listens: { url, logs, stop }. */
export const startApp = appStarter(new URL('../src/', import.meta.url), {
  // MERCURIUS_JIT=1 npm test runs the suite with graphql-jit on, as the
  // row mercurius-jit runs the app.
  baseEnv: { MERCURIUS_JIT: process.env.MERCURIUS_JIT ?? '' },
});
