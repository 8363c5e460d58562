// The control endpoint: no database, the framework's floor.
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return new Response('ok', { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}
