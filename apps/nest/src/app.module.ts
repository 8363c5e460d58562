import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import type { Deps } from '@crudbench/node-base/http/run.js';
import { BearerGuard, EditorGuard } from './auth.js';
import { AppLogger, Database, PersonWriter, Persons, Tokens, Users, Vacancies } from './dependencies.js';
import { HealthController } from './health.controller.js';
import { DeadlineInterceptor } from './http/answers.js';
import { BodyLimitGuard } from './http/body.js';
import { ProblemFilter } from './http/problem.js';
import { LoginController } from './login.controller.js';
import { PersonsController } from './persons.controller.js';
import { VacanciesController } from './vacancies.controller.js';

/**
 * AppModule is the whole API: its controllers, node-base's stores and
 * tokens as providers, and what every request passes through — the body
 * limit, the session and role guards, the deadline, and the one filter that
 * turns errors into problem documents.
 */
@Module({})
export class AppModule {
  /** register returns the module over deps, what node-base's run made for this process. */
  static register(deps: Deps): DynamicModule {
    return {
      module: AppModule,
      controllers: [HealthController, LoginController, PersonsController, VacanciesController],
      providers: [
        { provide: Persons, useValue: deps.persons },
        { provide: PersonWriter, useValue: deps.personWriter },
        { provide: Vacancies, useValue: deps.vacancies },
        { provide: Users, useValue: deps.users },
        { provide: Tokens, useValue: deps.tokens },
        { provide: Database, useValue: deps.pool },
        { provide: AppLogger, useValue: deps.logger },
        // Global guards run in this order, before a route's own.
        { provide: APP_GUARD, useClass: BodyLimitGuard },
        { provide: APP_GUARD, useClass: BearerGuard },
        { provide: APP_GUARD, useClass: EditorGuard },
        { provide: APP_INTERCEPTOR, useValue: new DeadlineInterceptor(deps.requestTimeoutMs) },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
    };
  }
}
