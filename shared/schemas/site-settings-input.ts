import { z } from 'zod';
import { SITE_NAME_MAX, SITE_TAGLINE_MAX, SITE_WELCOME_MAX, type SiteText } from './site-settings';
import { withoutInvisible } from './text';
import './field-messages';

/**
 * One of the site's words as an admin sends it: on one line (a name goes into mail subjects),
 * without invisible characters, at most `max` characters; empty means the release's own text.
 */
const siteWord = (max: number) =>
  z
    .string()
    .max(max * 2)
    .transform((v) => withoutInvisible(v).replace(/\s+/g, ' ').trim())
    .pipe(z.string().max(max));

const bothLanguages = (max: number) => z.object({ sv: siteWord(max), en: siteWord(max) });

/** The admin settings page's form and `PUT /api/site-settings`: every field, an empty one for the default. */
export const siteSettingsInputSchema = z.object({
  name: siteWord(SITE_NAME_MAX).describe(`The site's name, at most ${SITE_NAME_MAX} characters; empty for "Recensera".`),
  tagline: bothLanguages(SITE_TAGLINE_MAX).describe(
    `The tagline after the name in the home page's title, at most ${SITE_TAGLINE_MAX} characters each; empty for the default.`,
  ),
  welcome: bothLanguages(SITE_WELCOME_MAX).describe(`The home page's welcome text, at most ${SITE_WELCOME_MAX} characters each; empty for the default.`),
});
export type SiteSettingsInput = z.output<typeof siteSettingsInputSchema>;
export type SiteSettingsFormValues = z.input<typeof siteSettingsInputSchema>;

/** The site's words in use (an admin's, else the release's own) and when an admin last saved them. */
export type SiteSettings = SiteText & { updatedAt: string | null };
