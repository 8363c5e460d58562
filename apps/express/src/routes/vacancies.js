import { VACANCY, VACANCY_UPDATE, vacancyPatch } from '@crudbench/node-base/http/bodies.js';
import { jsonBody } from '../http/body.js';
import { sendJSON, sendProblem } from '../http/respond.js';
import { pathId, queryParam, setETag, versionOf } from '../http/params.js';

/** vacancyRoutes serves /api/vacancies. */
export function vacancyRoutes(router, { vacancies, reader, writer }) {
  router
    .route('/vacancies')
    .get(reader, async (req, res) => {
      const page = await vacancies.find({
        status: queryParam(req, 'status'),
        after: queryParam(req, 'after'),
        limit: queryParam(req, 'limit'),
      });
      sendJSON(res, 200, page);
    })
    .post(writer, jsonBody(VACANCY), async (req, res) => {
      const v = await vacancies.create(req.body);
      res.set('Location', `/api/vacancies/${v.id}`);
      setETag(res, v.version);
      sendJSON(res, 201, v);
    })
    .all(methodNotAllowed('GET, HEAD, POST'));

  router
    .route('/vacancies/:id')
    .get(reader, async (req, res) => {
      const v = await vacancies.findById(pathId(req));
      setETag(res, v.version);
      sendJSON(res, 200, v);
    })
    .patch(writer, jsonBody(VACANCY_UPDATE), async (req, res) => {
      const id = pathId(req);
      const patch = vacancyPatch(req.body);
      const v = await vacancies.update(id, versionOf(req, req.body.version), patch);
      setETag(res, v.version);
      sendJSON(res, 200, v);
    })
    .delete(writer, async (req, res) => {
      await vacancies.delete(pathId(req));
      res.status(204).end();
    })
    .all(methodNotAllowed('GET, HEAD, PATCH, DELETE'));
}

/** methodNotAllowed answers 405 with the methods the path does take. */
export const methodNotAllowed = (allow) => (req, res) => {
  res.set('Allow', allow);
  sendProblem(req, res, 405, `${req.method} is not allowed here`);
};
