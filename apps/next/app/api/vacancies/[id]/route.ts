import { body, json, notAllowed, nullsCannotClear, pathId, route, versionOf } from '../../../../lib/rest';
import { VACANCY, VACANCY_CLEARABLE, type VacancyInput } from '../../../../lib/shapes';

export const dynamic = 'force-dynamic';

/** GET /api/vacancies/{id}. */
export const GET = route('reader', async ({ deps, params }) => {
  const v = await deps.vacancies.findById(pathId(params.id) as number);
  return json(200, v, { ETag: `"${v.version}"` });
});

/** PATCH /api/vacancies/{id}: the members sent, on the version named; null clears closesOn or filledBy. */
export const PATCH = route('writer', async ({ req, deps, params }) => {
  const id = pathId(params.id) as number;
  const b = await body(req, { version: 'int32', ...VACANCY });
  nullsCannotClear(b, VACANCY_CLEARABLE);
  const { version, ...patch } = b;
  for (const k of VACANCY_CLEARABLE) if (b.nulls.includes(k)) patch[k] = null;
  const v = await deps.vacancies.update(id, versionOf(req, version), patch as VacancyInput);
  return json(200, v, { ETag: `"${v.version}"` });
});

/** DELETE /api/vacancies/{id}. */
export const DELETE = route('writer', async ({ deps, params }) => {
  await deps.vacancies.delete(pathId(params.id) as number);
  return new Response(null, { status: 204 });
});

export const PUT = notAllowed('GET, HEAD, PATCH, DELETE');
export const POST = PUT;
