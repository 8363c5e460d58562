import { VACANCY_UPDATE, vacancyPatch } from '@crudbench/node-base/http/bodies.js';
import { body, json, notAllowed, pathId, route, versionOf } from '../../../../lib/rest';
import type { VacancyInput } from '../../../../lib/deps';

export const dynamic = 'force-dynamic';

/** GET /api/vacancies/{id}. */
export const GET = route('reader', async ({ deps, params }) => {
  const v = await deps.vacancies.findById(pathId(params.id) as number);
  return json(200, v, { ETag: `"${v.version}"` });
});

/** PATCH /api/vacancies/{id}: the members sent, on the version named; null clears closesOn or filledBy. */
export const PATCH = route('writer', async ({ req, deps, params }) => {
  const id = pathId(params.id) as number;
  const b = await body(req, VACANCY_UPDATE);
  const patch = vacancyPatch(b) as VacancyInput;
  const v = await deps.vacancies.update(id, versionOf(req, b), patch);
  return json(200, v, { ETag: `"${v.version}"` });
});

/** DELETE /api/vacancies/{id}. */
export const DELETE = route('writer', async ({ deps, params }) => {
  await deps.vacancies.delete(pathId(params.id) as number);
  return new Response(null, { status: 204 });
});

export const PUT = notAllowed('GET, HEAD, PATCH, DELETE');
export const POST = PUT;
