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

/**
 * call sends one tRPC call to the app at url, as tRPC's httpLink sends it
 * (apps/trpc/test/start.js's): a query as GET /trpc/<procedure>?input=<JSON>,
 * a mutation as POST with the input as its JSON body. It resolves with
 * { status, headers, body }, body the answer's JSON.
 */
export async function call(url, procedure, input, { mutation = false, token } = {}) {
  const auth = token ? { Authorization: `Bearer ${token}` } : {};
  let res;
  if (mutation) {
    res = await fetch(`${url}/trpc/${procedure}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...auth },
      body: typeof input === 'string' ? input : JSON.stringify(input),
    });
  } else {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(typeof input === 'string' ? input : JSON.stringify(input))}`;
    res = await fetch(`${url}/trpc/${procedure}${query}`, { headers: auth });
  }
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** login returns a token for the user from auth.login (the seed's passwords are the names). */
export async function login(url, username) {
  const { status, body } = await call(url, 'auth.login', { username, password: username }, { mutation: true });
  if (status !== 200) throw new Error(`login as ${username}: ${status} ${JSON.stringify(body)}`);
  return body.result.data.token;
}
