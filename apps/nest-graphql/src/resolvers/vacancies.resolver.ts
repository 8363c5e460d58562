import { Args, Context, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { RequestContext } from '@crudbench/node-base/graphql/context.js';
import { type Arguments, resolvers } from './node-base.js';

const { Query: query, Mutation: mutation, Vacancy: vacancy } = resolvers;

/** VacancyResolver serves the vacancies: one or a page, their writes (editors only, @editor), and the person who filled one. */
@Resolver('Vacancy')
export class VacancyResolver {
  @Query('vacancy')
  vacancy(@Args() args: Arguments, @Context() ctx: RequestContext) {
    return query.vacancy(undefined, args, ctx);
  }

  @Query('vacancies')
  vacancies(@Args() args: Arguments, @Context() ctx: RequestContext) {
    return query.vacancies(undefined, args, ctx);
  }

  @Mutation('createVacancy')
  createVacancy(@Args() args: Arguments, @Context() ctx: RequestContext) {
    return mutation.createVacancy(undefined, args, ctx);
  }

  @Mutation('updateVacancy')
  updateVacancy(@Args() args: Arguments, @Context() ctx: RequestContext) {
    return mutation.updateVacancy(undefined, args, ctx);
  }

  @Mutation('deleteVacancy')
  deleteVacancy(@Args() args: Arguments, @Context() ctx: RequestContext) {
    return mutation.deleteVacancy(undefined, args, ctx);
  }

  @ResolveField('filledByPerson')
  filledByPerson(@Parent() parent: unknown, @Context() ctx: RequestContext) {
    return vacancy.filledByPerson(parent, {}, ctx);
  }
}
