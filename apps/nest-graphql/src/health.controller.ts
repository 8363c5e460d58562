import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ping } from '@crudbench/node-base/store/pool.js';
import { DEPS, type Deps } from './deps.js';

/** The response's part both of Nest's platforms have: Express's res and Fastify's reply alike. */
interface StatusResponse {
  status(code: number): unknown;
}

/** HealthController answers the control (no database) and readiness (a database ping) probes, outside GraphQL. */
@Controller()
export class HealthController {
  constructor(@Inject(DEPS) private readonly deps: Deps) {}

  @Get('healthz')
  @Header('Cache-Control', 'no-store')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  healthz() {
    return 'ok';
  }

  /** readyz is 200 while the database answers a ping within 2 s, 503 while it does not. */
  @Get('readyz')
  @Header('Cache-Control', 'no-store')
  async readyz(@Res({ passthrough: true }) res: StatusResponse) {
    const ok = await ping(this.deps.pool);
    res.status(ok ? 200 : 503);
    return { status: ok ? 'ready' : 'unavailable' };
  }
}
