import { ping } from '@crudbench/node-base/store/pool.js';
import { deps } from '../../lib/deps';

export const dynamic = 'force-dynamic';

/** GET answers 200 while the database answers a ping within 2 s, 503 otherwise. */
export async function GET(): Promise<Response> {
  const ok: boolean = await ping(deps().pool);
  return new Response(ok ? '{"status":"ready"}' : '{"status":"unavailable"}', {
    status: ok ? 200 : 503,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
}
