// The test harness is node-base's (test-kit/app.js): the app run as its
// own process against the real database. npm test builds dist/ first
// (pretest), and runs every suite with both drivers: this package's two
// rows, nest-graphql and nest-mercurius.
import { appStarter } from '@crudbench/node-base/test-kit/app.js';

export { DATABASE_URL, devToken } from '@crudbench/node-base/test-kit/app.js';

/**
 * DRIVERS are the drivers the suites run with, each [name, driver]: both,
 * or the one NEST_GRAPHQL_DRIVER names (NEST_GRAPHQL_DRIVER=mercurius npm
 * test).
 */
export const DRIVERS = [
  ['NestJS Apollo', 'apollo'],
  ['NestJS Mercurius', 'mercurius'],
].filter(([, driver]) => !process.env.NEST_GRAPHQL_DRIVER || process.env.NEST_GRAPHQL_DRIVER === driver);

/** starterOf returns startApp for driver: dist/main.js run on a free port, resolved once it listens: { url, logs, stop }. */
export const starterOf = (driver) => appStarter(new URL('../dist/', import.meta.url), { baseEnv: { NEST_GRAPHQL_DRIVER: driver } });
