import { sendJSON } from '../http/respond.js';
import { pathId, queryParam, setETag } from '../http/params.js';
import { methodNotAllowed } from './vacancies.js';

/** personRoutes serves /api/persons. */
export function personRoutes(router, { persons, reader }) {
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
    .all(methodNotAllowed('GET, HEAD'));

  router
    .route('/persons/:id')
    .get(reader, async (req, res) => {
      const p = await persons.findDetail(pathId(req));
      setETag(res, p.version);
      sendJSON(res, 200, p);
    })
    .all(methodNotAllowed('GET, HEAD'));
}
