// POST (or GET for a query) /graphql: Apollo Server through its Next.js integration (lib/graphql.ts).
import { serve } from '../../lib/graphql';

export const dynamic = 'force-dynamic';

export const GET = serve;
export const HEAD = serve;
export const POST = serve;
export const PUT = serve;
export const PATCH = serve;
export const DELETE = serve;
export const OPTIONS = serve;
