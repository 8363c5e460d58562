import { Context, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { RequestContext } from '@crudbench/node-base/graphql/context.js';
import { resolvers } from './node-base.js';

const { Appointment: appointment } = resolvers;

/** AppointmentResolver serves an appointment's person, stipends and fundings, each level one statement through the request's dataloaders. */
@Resolver('Appointment')
export class AppointmentResolver {
  @ResolveField('person')
  person(@Parent() parent: unknown, @Context() ctx: RequestContext) {
    return appointment.person(parent, {}, ctx);
  }

  @ResolveField('stipends')
  stipends(@Parent() parent: unknown, @Context() ctx: RequestContext) {
    return appointment.stipends(parent, {}, ctx);
  }

  @ResolveField('fundings')
  fundings(@Parent() parent: unknown, @Context() ctx: RequestContext) {
    return appointment.fundings(parent, {}, ctx);
  }
}
