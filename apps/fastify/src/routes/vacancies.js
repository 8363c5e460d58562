import { badRequest } from '@crudbench/node-base/errors.js';
import { pathId, queryParam, versionOf } from '../http/params.js';
import { vacancyAnswer, vacancyBody, vacancyPageAnswer, vacancyPatchBody } from '../schemas.js';
import { methodNotAllowed } from './methods.js';

const CLEARABLE = ['closesOn', 'filledBy'];

/** patchOf returns the members to change; null clears only what may be empty. */
function patchOf(body) {
  const { version, ...patch } = body;
  const cannotClear = Object.keys(patch).filter((k) => patch[k] === null && !CLEARABLE.includes(k));
  if (cannotClear.length > 0) {
    throw badRequest('a field that cannot be cleared is null', Object.fromEntries(cannotClear.map((k) => [k, 'must not be null'])));
  }
  return patch;
}

/** vacancies serves /api/vacancies. */
export default async function vacancies(fastify, { vacancies }) {
  const reader = { onRequest: [fastify.authenticate] };
  const writer = { onRequest: [fastify.authenticate, fastify.requireEditor] };

  fastify.get('/vacancies', { ...reader, schema: { response: { 200: vacancyPageAnswer } } }, (request) =>
    vacancies.find({
      status: queryParam(request, 'status'),
      after: queryParam(request, 'after'),
      limit: queryParam(request, 'limit'),
    }),
  );

  fastify.post('/vacancies', { ...writer, schema: { body: vacancyBody, response: { 201: vacancyAnswer } } }, async (request, reply) => {
    const v = await vacancies.create(request.body);
    return reply.code(201).header('Location', `/api/vacancies/${v.id}`).header('ETag', `"${v.version}"`).send(v);
  });
  methodNotAllowed(fastify, '/vacancies', ['GET', 'HEAD', 'POST']);

  fastify.get('/vacancies/:id', { ...reader, schema: { response: { 200: vacancyAnswer } } }, async (request, reply) => {
    const v = await vacancies.findById(pathId(request));
    reply.header('ETag', `"${v.version}"`);
    return v;
  });

  fastify.patch(
    '/vacancies/:id',
    { ...writer, schema: { body: vacancyPatchBody, response: { 200: vacancyAnswer } } },
    async (request, reply) => {
      const id = pathId(request);
      const patch = patchOf(request.body);
      const v = await vacancies.update(id, versionOf(request, request.body.version), patch);
      reply.header('ETag', `"${v.version}"`);
      return v;
    },
  );

  fastify.delete('/vacancies/:id', writer, async (request, reply) => {
    await vacancies.delete(pathId(request));
    return reply.code(204).send();
  });
  methodNotAllowed(fastify, '/vacancies/:id', ['GET', 'HEAD', 'PATCH', 'DELETE']);
}
