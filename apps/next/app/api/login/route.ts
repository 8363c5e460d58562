import { body, json, notAllowed, route } from '../../../lib/rest';

export const dynamic = 'force-dynamic';

/** POST /api/login: credentials in, a token out. */
export const POST = route('public', async ({ req, deps }) => {
  const b = await body(req, { username: 'string', password: 'string' });
  const user = await deps.users.authenticate((b.username as string) ?? '', (b.password as string) ?? '');
  const { token, expiresAt } = deps.tokens.issue(user);
  return json(200, { token, expiresAt: expiresAt.toISOString().replace('.000Z', 'Z') }, { 'Cache-Control': 'no-store' });
});

export const GET = notAllowed('POST');
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
