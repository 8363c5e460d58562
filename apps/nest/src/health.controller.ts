import { Controller, Get, Header, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { readFileSync } from 'node:fs';
import { ping } from '@crudbench/node-base/store/pool.js';
import { Public } from './auth.js';
import { Database } from './dependencies.js';

// The API's description is the repository's one document, served as is.
const OPENAPI_URL = new URL('../../../resources/openapi.yaml', import.meta.url);

/** HealthController serves what needs no session: liveness, readiness and the API's description. */
@Controller()
@Public()
export class HealthController {
  private readonly openapi = readFileSync(OPENAPI_URL, 'utf8');

  constructor(
    private readonly database: Database,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** healthz answers ok without a database round trip: the framework's floor. */
  @Get('healthz')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  healthz(): string {
    return 'ok';
  }

  /** readyz answers 200 while the database answers a ping within 2 s, else 503. */
  @Get('readyz')
  async readyz(@Res() response: unknown): Promise<void> {
    const ready = await ping(this.database);
    const http = this.adapterHost.httpAdapter;
    http.setHeader(response, 'Cache-Control', 'no-store');
    http.reply(response, { status: ready ? 'ready' : 'unavailable' }, ready ? 200 : 503);
  }

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml')
  description(): string {
    return this.openapi;
  }
}
