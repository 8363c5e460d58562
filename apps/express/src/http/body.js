import express from 'express';
import { RequestError } from '@crudbench/node-base/errors.js';
import { UNSUPPORTED_MEDIA_TYPE, decodeBody, isJSON } from '@crudbench/node-base/http/json.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';

// Bodies are read whole (at most 1 MiB) by Express and checked by
// node-base's decodeBody: the media type, UTF-8, a JSON object, only known
// members, each of its type, in the Go app's words.

const readRaw = express.raw({ type: () => true, limit: MAX_BODY_BYTES });

/**
 * jsonBody returns middleware that decodes the body into req.body following
 * shape, a map from member name to its type. A member absent or null is
 * left out of req.body; req.body.nulls names those sent as null.
 */
export function jsonBody(shape) {
  return [
    (req, res, next) => {
      if (!isJSON(req.get('Content-Type'))) return next(new RequestError(415, UNSUPPORTED_MEDIA_TYPE));
      readRaw(req, res, next);
    },
    (req, res, next) => {
      req.body = decodeBody(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), shape);
      next();
    },
  ];
}
