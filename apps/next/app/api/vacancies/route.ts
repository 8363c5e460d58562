import { VACANCY } from '@crudbench/node-base/http/bodies.js';
import { body, json, notAllowed, queryParam, route } from '../../../lib/rest';
import type { VacancyInput } from '../../../lib/deps';

export const dynamic = 'force-dynamic';

/** GET /api/vacancies: one page in id order, by status if asked. */
export const GET = route('reader', async ({ req, deps }) => {
  const page = await deps.vacancies.find({
    status: queryParam(req, 'status'),
    after: queryParam(req, 'after'),
    limit: queryParam(req, 'limit') as unknown as number,
  });
  return json(200, page);
});

/** POST /api/vacancies: a new vacancy. */
export const POST = route('writer', async ({ req, deps }) => {
  const v = await deps.vacancies.create((await body(req, VACANCY)) as VacancyInput);
  return json(201, v, { Location: `/api/vacancies/${v.id}`, ETag: `"${v.version}"` });
});

export const PUT = notAllowed('GET, HEAD, POST');
export const PATCH = PUT;
export const DELETE = PUT;
