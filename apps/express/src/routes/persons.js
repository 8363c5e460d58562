import { PERSON, PERSON_UPDATE, personPatch } from '@crudbench/node-base/http/bodies.js';
import { jsonBody } from '../http/body.js';
import { sendJSON } from '../http/respond.js';
import { pathId, queryParam, setETag, versionOf } from '../http/params.js';
import { methodNotAllowed } from './vacancies.js';

/** personRoutes serves /api/persons. */
export function personRoutes(router, { persons, personWriter, reader, writer }) {
  router
    .route('/persons')
    .get(reader, async (req, res) => {
      const page = await persons.find({
        search: queryParam(req, 'q'),
        after: queryParam(req, 'after'),
        limit: queryParam(req, 'limit'),
      });
      sendJSON(res, 200, page);
    })
    .post(writer, jsonBody(PERSON), async (req, res) => {
      const p = await personWriter.create(req.body);
      res.set('Location', `/api/persons/${p.id}`);
      setETag(res, p.version);
      sendJSON(res, 201, p);
    })
    .all(methodNotAllowed('GET, HEAD, POST'));

  router
    .route('/persons/:id')
    .get(reader, async (req, res) => {
      const p = await persons.findDetail(pathId(req));
      setETag(res, p.version);
      sendJSON(res, 200, p);
    })
    .patch(writer, jsonBody(PERSON_UPDATE), async (req, res) => {
      const id = pathId(req);
      const patch = personPatch(req.body);
      const p = await personWriter.update(id, versionOf(req, req.body.version), patch);
      setETag(res, p.version);
      sendJSON(res, 200, p);
    })
    .delete(writer, async (req, res) => {
      await personWriter.delete(pathId(req));
      res.status(204).end();
    })
    .all(methodNotAllowed('GET, HEAD, PATCH, DELETE'));
}
