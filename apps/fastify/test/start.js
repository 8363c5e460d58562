// The test harness is node-base's (test-kit/app.js): the app run as its
// own process against the real database.
import { appStarter } from '@crudbench/node-base/test-kit/app.js';

export { DATABASE_URL, devToken } from '@crudbench/node-base/test-kit/app.js';

/** startApp runs src/main.js on a free port and resolves once it listens: { url, logs, stop }. */
export const startApp = appStarter(new URL('../src/', import.meta.url), { stderr: 'inherit' });

/** login returns a token for the user (the seed's passwords are the names). */
export async function login(url, username = 'editor', password = username) {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login as ${username}: ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}
