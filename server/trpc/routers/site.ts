import { contactInputSchema, languageSchema } from '../../../shared/schemas/common';
import { contactInboxInputSchema, contactReadInputSchema } from '../../../shared/schemas/contact-inbox';
import { listContactMessages, sendContactMessage, setContactMessageRead } from '../../services/moderation/contact';
import { outboxReport } from '../../services/ops/mail-outbox';
import { siteSettingsInputSchema } from '../../../shared/schemas/site-settings-input';
import { getSiteSettings, updateSiteSettings } from '../../services/site/site-settings';
import { adminProcedure, cachedPublicProcedure, publicProcedure, router } from '../init';

export const siteRouter = router({
  contact: publicProcedure.input(contactInputSchema).mutation(async ({ ctx, input }) => {
    await sendContactMessage(ctx.deps, input, {
      ip: ctx.ip,
      language: languageSchema.catch('sv').parse(ctx.req?.cookies.lang),
    });
    return { ok: true as const };
  }),
  mailOutbox: adminProcedure.query(({ ctx }) => outboxReport(ctx.deps, ctx.actor)),
  /** The admins' contact inbox (/contact-inbox), newest first, with the unread count. */
  contactMessages: adminProcedure.input(contactInboxInputSchema.optional()).query(({ ctx, input }) => listContactMessages(ctx.deps, ctx.actor, input ?? {})),
  setContactRead: adminProcedure.input(contactReadInputSchema).mutation(({ ctx, input }) => setContactMessageRead(ctx.deps, ctx.actor, input)),
  /** The site's name, tagline and welcome text in use (issue 29 item 15). */
  settings: cachedPublicProcedure.query(({ ctx }) => getSiteSettings(ctx.deps)),
  updateSettings: adminProcedure.input(siteSettingsInputSchema).mutation(({ ctx, input }) => updateSiteSettings(ctx.deps, ctx.actor, input)),
});
