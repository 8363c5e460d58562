import { Controller, Header, HttpCode, Post } from '@nestjs/common';
import { Public } from './auth.js';
import { Tokens, Users } from './dependencies.js';
import { JsonBody, type Decoded, type Shape } from './http/body.js';
import { Allow } from './http/methods.js';

const CREDENTIALS = { username: 'string', password: 'string' } as const satisfies Shape;

/** LoginController serves POST /api/login: credentials in, a token out. */
@Controller('api/login')
@Public()
@Allow('', 'POST')
export class LoginController {
  constructor(
    private readonly users: Users,
    private readonly tokens: Tokens,
  ) {}

  @Post()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async login(@JsonBody(CREDENTIALS) body: Decoded<typeof CREDENTIALS>) {
    const user = await this.users.authenticate(body.username ?? '', body.password ?? '');
    const { token, expiresAt } = this.tokens.issue(user);
    return { token, expiresAt: expiresAt.toISOString().replace('.000Z', 'Z') };
  }
}
