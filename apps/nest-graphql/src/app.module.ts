import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ApolloGraphQLModule } from './apollo.js';
import { DEPS, type Deps, type Driver } from './deps.js';
import { ErrorFilter } from './errors.filter.js';
import { HealthController } from './health.controller.js';
import { MercuriusGraphQLModule } from './mercurius.js';
import { AppointmentResolver } from './resolvers/appointments.resolver.js';
import { PersonResolver } from './resolvers/persons.resolver.js';
import { SessionResolver } from './resolvers/session.resolver.js';
import { VacancyResolver } from './resolvers/vacancies.resolver.js';

/**
 * AppModule is the whole app: the probes, the resolvers, the one exception
 * filter, and GraphQL with the driver's module; deps (node-base's stores,
 * tokens, logger and deadline) are its global provider DEPS.
 */
@Module({})
export class AppModule {
  static forRoot(deps: Deps, driver: Driver): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [driver === 'mercurius' ? MercuriusGraphQLModule.forRoot(deps) : ApolloGraphQLModule.forRoot(deps)],
      controllers: [HealthController],
      providers: [
        { provide: DEPS, useValue: deps },
        { provide: APP_FILTER, useClass: ErrorFilter },
        PersonResolver,
        AppointmentResolver,
        VacancyResolver,
        SessionResolver,
      ],
      exports: [DEPS],
    };
  }
}
