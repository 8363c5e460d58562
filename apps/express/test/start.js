// The test harness is node-base's (test-kit/app.js): the app run as its
// own process against the real database, and its login.
import { appStarter } from '@crudbench/node-base/test-kit/app.js';

export { DATABASE_URL, devToken, restLogin as login } from '@crudbench/node-base/test-kit/app.js';

/** startApp runs src/main.js (or main, such as cluster.js) on a free port and resolves once it listens: { url, logs, stop }. */
export const startApp = appStarter(new URL('../src/', import.meta.url));
