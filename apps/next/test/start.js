// The test harness is node-base's (test-kit/app.js): the app, as `next
// build` built it into .next/ (npm test builds it first), run as its own
// process (node server.js) against the real database.
import { existsSync } from 'node:fs';
import { appStarter } from '@crudbench/node-base/test-kit/app.js';

export { DATABASE_URL, devToken } from '@crudbench/node-base/test-kit/app.js';

const APP_DIR = new URL('../', import.meta.url);

if (!existsSync(new URL('.next/BUILD_ID', APP_DIR))) {
  throw new Error('apps/next is not built: run `npm run build --workspace crudbench-next` (or `npm test`, which builds it) first');
}

const start = appStarter(APP_DIR);

/** startApp runs server.js on a free port and resolves once it listens: { url, logs, stop }. */
export const startApp = (env = {}) => start(env, 'server.js');
