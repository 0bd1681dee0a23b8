import { z } from 'zod';
import { withoutInvisible } from './text';
import './field-messages';
export { commonMessages } from './common-messages';

export const languageSchema = z.enum(['sv', 'en']);
export type Language = z.infer<typeof languageSchema>;

export const idSchema = z.string().min(1).max(64);

/**
 * The spam trap of the registration and contact forms (docs/product.md §11): a field people never see
 * or reach, which form-filling robots fill. Any length is taken, so a robot never gets a 400 that
 * tells it apart; a filled one gets the usual success reply and nothing is stored or sent.
 */
export const HONEYPOT_FIELD = 'website';
export const honeypotSchema = z.string().optional().describe('Leave empty.');
/** Whether a form's trap was filled. */
export const filledHoneypot = (input: { website?: string }) => Boolean(input.website?.trim());

/** Kinds of uploaded image; each has its own size bounds (docs/product.md §5). */
export const imageKinds = ['avatar', 'business', 'icon', 'comment', 'reply', 'reply-edit'] as const;
export const imageKindSchema = z.enum(imageKinds);
export type ImageKind = z.infer<typeof imageKindSchema>;

/** Longest side in pixels and byte budget per kind; the browser shrinks to these before upload. */
export const imageBounds: Record<ImageKind, { maxSide: number; maxBytes: number }> = {
  avatar: { maxSide: 512, maxBytes: 512 * 1024 },
  icon: { maxSide: 512, maxBytes: 512 * 1024 },
  business: { maxSide: 1920, maxBytes: 2 * 1024 * 1024 },
  comment: { maxSide: 1920, maxBytes: 2 * 1024 * 1024 },
  reply: { maxSide: 300, maxBytes: 1024 * 1024 },
  'reply-edit': { maxSide: 300, maxBytes: 100 * 1024 },
};

/** The server refuses any upload over this many bytes (413). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

// A missing field gets the same message as an empty one (zod's own would be "expected string").
export const contactInputSchema = z.object({
  from_name: z.string({ error: 'contactNameRequired' }).overwrite(withoutInvisible).trim().min(1, 'contactNameRequired').max(100, 'contactTooLong'),
  user_email: z.string({ error: 'contactEmailRequired' }).trim().min(1, 'contactEmailRequired').max(254, 'contactTooLong').email('invalidEmail'),
  message: z.string({ error: 'contactMessageRequired' }).overwrite(withoutInvisible).trim().min(1, 'contactMessageRequired').max(5000, 'contactTooLong'),
  website: honeypotSchema,
});
export type ContactInput = z.infer<typeof contactInputSchema>;
