import { contactInputSchema, languageSchema } from '../../schemas/common';
import { sendContactMessage } from '../../services/contact';
import { outboxReport } from '../../services/mail-outbox';
import { adminProcedure, publicProcedure, router } from '../init';

export const siteRouter = router({
  contact: publicProcedure.input(contactInputSchema).mutation(async ({ ctx, input }) => {
    await sendContactMessage(ctx.deps, input, {
      ip: ctx.ip,
      language: languageSchema.catch('sv').parse(ctx.req?.cookies.lang),
    });
    return { ok: true as const };
  }),
  mailOutbox: adminProcedure.query(({ ctx }) => outboxReport(ctx.deps, ctx.actor)),
});
