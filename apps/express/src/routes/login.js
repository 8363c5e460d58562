import { jsonBody } from '../http/body.js';
import { sendJSON } from '../http/respond.js';
import { methodNotAllowed } from './vacancies.js';

/** loginRoutes serves POST /api/login: credentials in, a token out. */
export function loginRoutes(router, { users, tokens }) {
  router
    .route('/login')
    .post(jsonBody({ username: 'string', password: 'string' }), async (req, res) => {
      const user = await users.authenticate(req.body.username ?? '', req.body.password ?? '');
      const { token, expiresAt } = tokens.issue(user);
      res.set('Cache-Control', 'no-store');
      sendJSON(res, 200, { token, expiresAt: expiresAt.toISOString().replace('.000Z', 'Z') });
    })
    .all(methodNotAllowed('POST'));
}
