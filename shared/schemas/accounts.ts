import { z } from 'zod';
import { withoutInvisible } from './text';
import { honeypotSchema, idSchema, languageSchema } from './common';
import { accountMessages } from './account-messages';

export { accountMessages };

type AccountKey = keyof typeof accountMessages;
/** Zod messages are message keys; typed here so a misspelt key fails the type check. */
const msg = (key: AccountKey | 'required' | 'invalidEmail' | 'invalidInput') => key;

/**
 * E-mails are compared lower-cased everywhere; the column is stored that way. An empty field
 * also fails the later checks; forms and REST replies show only a field's first message.
 */
export const emailSchema = z
  .string({ error: msg('emailRequired') })
  .trim()
  .toLowerCase()
  .min(1, msg('emailRequired'))
  .max(254, msg('invalidEmail'))
  .email(msg('invalidEmail'));

/** docs/product.md §3: 8 to 128 characters (the description's minimum of 3 is not kept). */
export const newPasswordSchema = z
  .string({ error: msg('passwordRequired') })
  .min(1, msg('passwordRequired'))
  .min(8, msg('passwordTooShort'))
  .max(128, msg('passwordTooLong'));

const nameSchema = (requiredKey: AccountKey | 'required') =>
  z
    .string({ error: msg(requiredKey) })
    .overwrite(withoutInvisible)
    .trim()
    .min(1, msg(requiredKey))
    .min(2, msg('nameTooShort'))
    .max(50, msg('nameTooLong'));

export const loginInputSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: msg('passwordRequired') })
    .min(1, msg('passwordRequired'))
    .max(128, msg('passwordTooLong')),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

const passwordPair = z.object({ password: newPasswordSchema, confirmPassword: z.string({ error: msg('required') }) });

/** "Password must match" also shows while other fields are still wrong (zod skips it otherwise). */
const passwordsMatch = <S extends z.ZodType<{ password: string; confirmPassword: string }>>(schema: S) =>
  schema.refine((v) => v.password === v.confirmPassword, {
    error: msg('passwordMismatch'),
    path: ['confirmPassword'],
    when: (payload) => passwordPair.safeParse(payload.value).success,
  });

export const registerFields = z.object({
  firstName: nameSchema('required'),
  lastName: nameSchema('required'),
  email: emailSchema,
  password: newPasswordSchema,
  confirmPassword: z.string({ error: msg('required') }).min(1, msg('required')),
  /** The interface language while registering: the language of the confirmation mail. */
  language: languageSchema.optional(),
  website: honeypotSchema,
});
export const registerInputSchema = passwordsMatch(registerFields);
export type RegisterInput = z.infer<typeof registerInputSchema>;

export const emailInputSchema = z.object({ email: emailSchema, language: languageSchema.optional() });
export type EmailInput = z.infer<typeof emailInputSchema>;

export const tokenInputSchema = z.object({
  token: z
    .string({ error: msg('tokenMissing') })
    .trim()
    .min(1, msg('tokenMissing'))
    .max(200, msg('tokenMissing')),
});

/**
 * What the confirmation page may send besides the token (issue 27): for an address registered
 * more than once, the password of the link's registration, or the wish to choose a new one.
 */
export const confirmEmailOptionsSchema = z.object({
  password: z.string().max(128, msg('passwordTooLong')).optional(),
  choosePassword: z.boolean().optional(),
});
export const confirmEmailInputSchema = tokenInputSchema.extend(confirmEmailOptionsSchema.shape);

export const resetPasswordInputSchema = passwordsMatch(
  z.object({
    token: tokenInputSchema.shape.token,
    password: newPasswordSchema,
    confirmPassword: z.string({ error: msg('required') }).min(1, msg('required')),
  }),
);
export type ResetPasswordInput = z.infer<typeof resetPasswordInputSchema>;

/** The profile's password change: the current password, then the new one twice. */
export const changePasswordInputSchema = passwordsMatch(
  z.object({
    currentPassword: z
      .string({ error: msg('currentPasswordRequired') })
      .min(1, msg('currentPasswordRequired'))
      .max(128, msg('passwordTooLong')),
    password: newPasswordSchema,
    confirmPassword: z.string({ error: msg('required') }).min(1, msg('required')),
  }),
);
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

/** What a user may change about themself (docs/product.md §2): names, avatar, language. */
export const nameDisplays = ['initial', 'full'] as const;
export type NameDisplay = (typeof nameDisplays)[number];
export const nameDisplaySchema = z.enum(nameDisplays);

export const profileInputSchema = z.object({
  firstName: nameSchema('firstNameRequired'),
  lastName: nameSchema('lastNameRequired'),
  /** An uploaded avatar (POST /api/images, kind avatar); null removes it, absent keeps it. */
  imageId: idSchema.nullable().optional(),
  language: languageSchema.optional(),
  /** How others see the name: 'initial' ("Förnamn E.") or 'full' ("Förnamn Efternamn"); absent keeps it. */
  nameDisplay: nameDisplaySchema.optional(),
});
export type ProfileInput = z.infer<typeof profileInputSchema>;

/** What an admin may change about a user. */
/** Accounts a page of /user-mng shows unless asked for more or fewer. */
export const USERS_PAGE = 50;

/** User management's search (name or e-mail, any part) and paging, oldest first. */
export const usersPageInputSchema = z.object({
  q: z.string().trim().max(200).optional(),
  cursor: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(200).optional(),
});
export type UsersPageInput = z.output<typeof usersPageInputSchema>;

/** Characters an admin may write as the reason of a ban. */
export const BAN_REASON_MAX = 500;

export const userFlagsSchema = z.object({
  isBanned: z.boolean().optional(),
  /** Why the account is banned: stored, logged and shown to its owner at login (only with a ban). */
  banReason: z.string().trim().max(BAN_REASON_MAX).optional(),
  isAdmin: z.boolean().optional(),
  isModerator: z.boolean().optional(),
});
export type UserFlags = z.infer<typeof userFlagsSchema>;

export const setFlagsInputSchema = userFlagsSchema.extend({ userId: idSchema });
export const userIdInputSchema = z.object({ userId: idSchema });

export const googleCallbackInputSchema = z.object({
  code: z.string().min(1, msg('googleMissingData')).max(2048, msg('googleMissingData')),
  state: z.string().min(1, msg('googleMissingData')).max(512, msg('googleMissingData')),
  language: languageSchema.optional(),
});
export type GoogleCallbackInput = z.infer<typeof googleCallbackInputSchema>;

export const googleIdTokenInputSchema = z.object({
  id_token: z
    .string({ error: msg('googleMissingData') })
    .min(1, msg('googleMissingData'))
    .max(8192, msg('googleMissingData')),
  language: languageSchema.optional(),
});
