import { Args, Context, Mutation, Resolver } from '@nestjs/graphql';
import type { RequestContext } from '@crudbench/node-base/graphql/context.js';
import { type Arguments, resolvers } from './node-base.js';

/** SessionResolver serves login: a token for a user's name and password (bcrypt), the Go apps' format. */
@Resolver()
export class SessionResolver {
  @Mutation('login')
  login(@Args() args: Arguments, @Context() ctx: RequestContext) {
    return resolvers.Mutation.login(undefined, args, ctx);
  }
}
