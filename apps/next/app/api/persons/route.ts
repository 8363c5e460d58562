import { body, json, notAllowed, queryParam, route } from '../../../lib/rest';
import { PERSON } from '@crudbench/node-base/http/bodies.js';

export const dynamic = 'force-dynamic';

/** GET /api/persons: one page in name order. */
export const GET = route('reader', async ({ req, deps }) => {
  const page = await deps.persons.find({
    search: queryParam(req, 'q'),
    after: queryParam(req, 'after'),
    limit: queryParam(req, 'limit') as unknown as number,
  });
  return json(200, page);
});

/** POST /api/persons: a new person. */
export const POST = route('writer', async ({ req, deps }) => {
  const p = await deps.personWriter.create(await body(req, PERSON));
  return json(201, p, { Location: `/api/persons/${p.id}`, ETag: `"${p.version}"` });
});

export const PUT = notAllowed('GET, HEAD, POST');
export const PATCH = PUT;
export const DELETE = PUT;
