import { z } from 'zod';
import { idSchema } from './common';

/** Messages a page of the contact inbox shows unless asked for fewer, newest first. */
export const CONTACT_INBOX_PAGE = 25;

export const contactInboxInputSchema = z.object({
  cursor: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(100).optional(),
  /** Only the messages nobody has marked read. */
  unread: z.boolean().optional(),
});
export type ContactInboxInput = z.output<typeof contactInboxInputSchema>;

export const contactReadInputSchema = z.object({ id: idSchema, read: z.boolean() });
export type ContactReadInput = z.output<typeof contactReadInputSchema>;

/** One stored contact-form message as the admins' inbox shows it. */
export type ContactMessage = {
  _id: string;
  fromName: string;
  email: string;
  message: string;
  language: 'sv' | 'en';
  date: string;
  /** Sent on to CONTACT_EMAIL (null: not mailed, e.g. no address set). */
  mailedAt: string | null;
  readAt: string | null;
};

export type ContactInboxPage = { items: ContactMessage[]; nextCursor: string | null; unread: number };
