// The whole tRPC surface on one screen: the procedures of the trpc kind
// (docs/contract.md), over node-base's store — the same statements, per
// call, as express's routes. No adapter here: this app mounts it on
// tRPC's standalone Node adapter (app.ts), and any other adapter (a
// Next.js route's fetch adapter) can mount the same router with
// contextOf.
import * as input from './inputs.js';
import { RefusalError, deadline, publicProcedure, readProcedure, router, writeProcedure } from './trpc.js';
import type { VacancyInput } from './deps.js';

export { contextOf } from './trpc.js';
export { FAILURE_TYPE, responseMeta } from './headers.js';
export type { Context } from './trpc.js';
export type { Deps } from './deps.js';

/** appRouter is every procedure: auth, person and vacancy. */
export const appRouter = router({
  auth: router({
    login: publicProcedure
      .input(input.login)
      .use(deadline)
      .mutation(async ({ ctx, input }) => {
        const user = await ctx.deps.users.authenticate(input.username, input.password);
        const { token, expiresAt } = ctx.deps.tokens.issue(user);
        return { token, expiresAt: expiresAt.toISOString().replace('.000Z', 'Z') };
      }),
  }),

  person: router({
    byId: readProcedure
      .input(input.byId)
      .use(deadline)
      .query(({ ctx, input }) => ctx.deps.persons.findDetail(input.id)),
    list: readProcedure
      .input(input.personPage)
      .use(deadline)
      .query(({ ctx, input = {} }) => ctx.deps.persons.find({ search: input.q, after: input.after, limit: input.limit })),
  }),

  vacancy: router({
    byId: readProcedure
      .input(input.byId)
      .use(deadline)
      .query(({ ctx, input }) => ctx.deps.vacancies.findById(input.id)),
    list: readProcedure
      .input(input.vacancyPage)
      .use(deadline)
      .query(({ ctx, input = {} }) => ctx.deps.vacancies.find(input)),
    create: writeProcedure
      .input(input.newVacancy)
      .use(deadline)
      .mutation(({ ctx, input }) => ctx.deps.vacancies.create(input)),
    update: writeProcedure
      .input(input.vacancyPatch)
      .use(deadline)
      .mutation(({ ctx, input }) => {
        const { id, version, ...patch } = input;
        if (version === undefined) {
          throw new RefusalError('PRECONDITION_FAILED', 'an update must name the version it is based on: send "version"', {
            version: 'is required',
          });
        }
        return ctx.deps.vacancies.update(id, version, patch as VacancyInput);
      }),
    delete: writeProcedure
      .input(input.byId)
      .use(deadline)
      .mutation(async ({ ctx, input }) => {
        await ctx.deps.vacancies.delete(input.id);
        return null;
      }),
  }),
});

/** AppRouter is the router's type, what a typed tRPC client is made from. */
export type AppRouter = typeof appRouter;
