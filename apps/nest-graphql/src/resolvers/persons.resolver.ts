import { Args, Context, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { RequestContext } from '@crudbench/node-base/graphql/context.js';
import { type Arguments, resolvers } from './node-base.js';

const { Query: query, Mutation: mutation, Person: person } = resolvers;

/** PersonResolver serves the persons: one or a page, their writes (editors only, @editor), and each one's appointments. */
@Resolver('Person')
export class PersonResolver {
  @Query('person')
  person(@Args() args: Arguments, @Context() ctx: RequestContext) {
    return query.person(undefined, args, ctx);
  }

  @Query('persons')
  persons(@Args() args: Arguments, @Context() ctx: RequestContext) {
    return query.persons(undefined, args, ctx);
  }

  @Mutation('createPerson')
  createPerson(@Args() args: Arguments, @Context() ctx: RequestContext) {
    return mutation.createPerson(undefined, args, ctx);
  }

  @Mutation('updatePerson')
  updatePerson(@Args() args: Arguments, @Context() ctx: RequestContext) {
    return mutation.updatePerson(undefined, args, ctx);
  }

  @Mutation('deletePerson')
  deletePerson(@Args() args: Arguments, @Context() ctx: RequestContext) {
    return mutation.deletePerson(undefined, args, ctx);
  }

  /** appointments are the person's, through the request's dataloader: one statement for every person of the request. */
  @ResolveField('appointments')
  appointments(@Parent() parent: unknown, @Context() ctx: RequestContext) {
    return person.appointments(parent, {}, ctx);
  }
}
