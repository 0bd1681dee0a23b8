import { contactInputSchema, languageSchema } from '../../schemas/common';
import { sendContactMessage } from '../../services/contact';
import { publicProcedure, router } from '../init';

export const siteRouter = router({
  contact: publicProcedure.input(contactInputSchema).mutation(async ({ ctx, input }) => {
    await sendContactMessage(ctx.deps, input, {
      ip: ctx.ip,
      language: languageSchema.catch('sv').parse(ctx.req?.cookies.lang),
      log: ctx.req?.log ?? console,
    });
    return { ok: true as const };
  }),
});
