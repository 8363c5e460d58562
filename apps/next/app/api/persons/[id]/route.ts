import { PERSON_UPDATE, personPatch } from '@crudbench/node-base/http/bodies.js';
import { body, json, notAllowed, pathId, route, versionOf } from '../../../../lib/rest';

export const dynamic = 'force-dynamic';

/** GET /api/persons/{id}: the person with every appointment nested. */
export const GET = route('reader', async ({ deps, params }) => {
  const p = await deps.persons.findDetail(pathId(params.id));
  return json(200, p, { ETag: `"${p.version}"` });
});

/** PATCH /api/persons/{id}: the members sent, on the version named; no person member may be cleared. */
export const PATCH = route('writer', async ({ req, deps, params }) => {
  const id = pathId(params.id);
  const b = await body(req, PERSON_UPDATE);
  const patch = personPatch(b);
  const p = await deps.personWriter.update(id, versionOf(req, b), patch);
  return json(200, p, { ETag: `"${p.version}"` });
});

/** DELETE /api/persons/{id}. */
export const DELETE = route('writer', async ({ deps, params }) => {
  await deps.personWriter.delete(pathId(params.id));
  return new Response(null, { status: 204 });
});

export const PUT = notAllowed('GET, HEAD, PATCH, DELETE');
export const POST = PUT;
