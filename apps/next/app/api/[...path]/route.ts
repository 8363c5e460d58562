// Any other path under /api/: the Go app's 404 problem, whatever the method.
import { problem } from '../../../lib/rest';

export const dynamic = 'force-dynamic';

const notFound = async (req: Request): Promise<Response> =>
  problem(req, 404, 'nothing lives at this path; the API is described at /openapi.yaml');

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
