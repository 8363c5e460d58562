import { badRequest } from '@crudbench/node-base/errors.js';
import { pathId, queryParam, versionOf } from '../http/params.js';
import { personAnswer, personBody, personDetailAnswer, personPageAnswer, personPatchBody } from '../schemas.js';
import { methodNotAllowed } from './methods.js';

/** patchOf returns the members to change; no person field may be cleared. */
function patchOf(body) {
  const { version, ...patch } = body;
  const nulls = Object.keys(patch).filter((k) => patch[k] === null);
  if (nulls.length > 0) {
    throw badRequest('a field that cannot be cleared is null', Object.fromEntries(nulls.map((k) => [k, 'must not be null'])));
  }
  return patch;
}

/** persons serves /api/persons. */
export default async function persons(fastify, { persons, personWriter }) {
  const reader = { onRequest: [fastify.authenticate] };
  const writer = { onRequest: [fastify.authenticate, fastify.requireEditor] };

  fastify.get('/persons', { ...reader, schema: { response: { 200: personPageAnswer } } }, (request) =>
    persons.find({
      search: queryParam(request, 'q'),
      after: queryParam(request, 'after'),
      limit: queryParam(request, 'limit'),
    }),
  );

  fastify.post('/persons', { ...writer, schema: { body: personBody, response: { 201: personAnswer } } }, async (request, reply) => {
    const p = await personWriter.create(request.body);
    return reply.code(201).header('Location', `/api/persons/${p.id}`).header('ETag', `"${p.version}"`).send(p);
  });
  methodNotAllowed(fastify, '/persons', ['GET', 'HEAD', 'POST']);

  fastify.get('/persons/:id', { ...reader, schema: { response: { 200: personDetailAnswer } } }, async (request, reply) => {
    const p = await persons.findDetail(pathId(request));
    reply.header('ETag', `"${p.version}"`);
    return p;
  });

  fastify.patch(
    '/persons/:id',
    { ...writer, schema: { body: personPatchBody, response: { 200: personAnswer } } },
    async (request, reply) => {
      const id = pathId(request);
      const patch = patchOf(request.body);
      const p = await personWriter.update(id, versionOf(request, request.body.version), patch);
      reply.header('ETag', `"${p.version}"`);
      return p;
    },
  );

  fastify.delete('/persons/:id', writer, async (request, reply) => {
    await personWriter.delete(pathId(request));
    return reply.code(204).send();
  });
  methodNotAllowed(fastify, '/persons/:id', ['GET', 'HEAD', 'PATCH', 'DELETE']);
}
