import { RETRY_AFTER } from '../http/server.js';

/**
 * answers returns the answers of a GraphQL app's createServer (see
 * http/server.js), written with send(req, res, status, code, message),
 * the app's error writer: the Go graphql app's 400 for a body not read in
 * time, 500 without details, and, since no GraphQL engine here has a
 * request deadline of its own, 503 UNAVAILABLE with Retry-After for a
 * request still unanswered at REQUEST_TIMEOUT, whatever it waits for (a
 * frozen database holds each statement until pg's own timeouts, one after
 * another).
 */
export function answers(send) {
  return {
    badBody: (req, res) => send(req, res, 400, 'BAD_REQUEST', 'the request body could not be read'),
    internal: (req, res) => send(req, res, 500, 'INTERNAL', 'internal error'),
    unavailable: (req, res) => {
      res.setHeader('Retry-After', RETRY_AFTER);
      send(req, res, 503, 'UNAVAILABLE', 'the database did not answer in time');
    },
  };
}
