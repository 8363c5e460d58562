// The test harness is node-base's (test-kit/app.js): the app, as tsc
// compiled it into dist/ (npm test builds it first), run as its own
// process against the real database.
import { appStarter } from '@crudbench/node-base/test-kit/app.js';

export { DATABASE_URL, devToken } from '@crudbench/node-base/test-kit/app.js';

/** startApp runs dist/main.js on a free port and resolves once it listens: { url, logs, stop }. */
export const startApp = appStarter(new URL('../dist/', import.meta.url));
