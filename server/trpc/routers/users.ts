import { z } from 'zod';
import { clearSessionCookie, setSessionCookie } from '../../plugins/session';
import {
  changePasswordInputSchema,
  confirmEmailInputSchema,
  emailInputSchema,
  googleCallbackInputSchema,
  loginInputSchema,
  profileInputSchema,
  resetPasswordInputSchema,
  setFlagsInputSchema,
  usersPageInputSchema,
  userIdInputSchema,
} from '../../../shared/schemas/accounts';
import { idSchema } from '../../../shared/schemas/common';
import {
  accountConfig,
  bannedError,
  changePassword,
  confirmEmail,
  forgotPassword,
  logIn,
  logOut,
  resendConfirmation,
  resetPassword,
  type SignedInResult,
} from '../../services/accounts/accounts';
import { deleteAccount } from '../../services/accounts/accounts-delete';
import { exportUserData } from '../../services/accounts/accounts-export';
import { completeGoogleSignIn, GOOGLE_STATE_COOKIE, GOOGLE_VERIFIER_COOKIE } from '../../services/accounts/google';
import { getMe, getUser, listUsers, listUsersPage, setUserFlags, updateProfile } from '../../services/accounts/users';
import { myPostsInputSchema, profileInputSchema as publicProfileInputSchema } from '../../../shared/schemas/profiles';
import { getPublicProfile, listMyPosts } from '../../services/accounts/profiles';
import type { Context } from '../context';
import { activeProcedure, adminProcedure, publicProcedure, router, signedInProcedure } from '../init';

/** The browser keeps the session in the httpOnly cookie; the token never reaches script. */
function signedIn(ctx: Context, result: SignedInResult) {
  if (ctx.reply) setSessionCookie(ctx.reply, ctx.deps.env, result.token, result.expiresAt);
  return { user: result.user };
}

export const usersRouter = router({
  me: publicProcedure.query(({ ctx }) => getMe(ctx.deps.db, ctx.actor)),
  config: publicProcedure.query(({ ctx }) => accountConfig(ctx.deps)),

  /** A banned account gets its restricted session cookie and then the 403 with the reason (services/accounts/accounts.ts logIn). */
  login: publicProcedure.input(loginInputSchema).mutation(async ({ ctx, input }) => {
    const result = await logIn(ctx.deps, input, { ip: ctx.ip });
    const reply = signedIn(ctx, result);
    if (result.user.isBanned) throw bannedError(result.banReason);
    return reply;
  }),
  logout: signedInProcedure.mutation(({ ctx }) => {
    const result = logOut(ctx.deps, ctx.actor, ctx.sessionId);
    if (ctx.reply) clearSessionCookie(ctx.reply, ctx.deps.env);
    return result;
  }),
  resendConfirmation: publicProcedure.input(emailInputSchema).mutation(({ ctx, input }) => resendConfirmation(ctx.deps, input, { ip: ctx.ip })),
  confirmEmail: publicProcedure.input(confirmEmailInputSchema).mutation(({ ctx, input }) => confirmEmail(ctx.deps, input, { ip: ctx.ip })),
  forgotPassword: publicProcedure.input(emailInputSchema).mutation(({ ctx, input }) => forgotPassword(ctx.deps, input, { ip: ctx.ip })),
  resetPassword: publicProcedure.input(resetPasswordInputSchema).mutation(({ ctx, input }) => resetPassword(ctx.deps, input)),
  /** The /google-logIn page hands over the provider's code; the flow cookies come with it. */
  googleCallback: publicProcedure.input(googleCallbackInputSchema).mutation(async ({ ctx, input }) => {
    const cookies = ctx.req?.cookies ?? {};
    ctx.reply?.clearCookie(GOOGLE_STATE_COOKIE, { path: '/' });
    ctx.reply?.clearCookie(GOOGLE_VERIFIER_COOKIE, { path: '/' });
    const stored = { state: cookies[GOOGLE_STATE_COOKIE], codeVerifier: cookies[GOOGLE_VERIFIER_COOKIE] };
    const result = await completeGoogleSignIn(ctx.deps, input, stored, { ip: ctx.ip });
    const reply = signedIn(ctx, result);
    if (result.user.isBanned) throw bannedError(result.banReason);
    return reply;
  }),

  /** A user's public profile (issue 30): anyone, signed in or not. */
  profile: publicProcedure.input(publicProfileInputSchema).query(({ ctx, input }) => getPublicProfile(ctx.deps, input)),
  /** Your own reviews or replies, newest first (issue 30, item 7). */
  myPosts: signedInProcedure.input(myPostsInputSchema).query(({ ctx, input }) => listMyPosts(ctx.deps, ctx.actor, input)),
  list: adminProcedure.query(({ ctx }) => listUsers(ctx.deps, ctx.actor)),
  /** /user-mng: search by name or e-mail, a page at a time. */
  page: adminProcedure.input(usersPageInputSchema.optional()).query(({ ctx, input }) => listUsersPage(ctx.deps, ctx.actor, input ?? {})),
  byId: signedInProcedure.input(z.object({ id: idSchema })).query(({ ctx, input }) => getUser(ctx.deps, ctx.actor, input.id)),
  updateProfile: activeProcedure.input(profileInputSchema).mutation(({ ctx, input }) => updateProfile(ctx.deps, ctx.actor, input)),
  setFlags: adminProcedure.input(setFlagsInputSchema).mutation(({ ctx, input: { userId, ...flags } }) => setUserFlags(ctx.deps, ctx.actor, userId, flags)),
  delete: signedInProcedure.input(userIdInputSchema).mutation(({ ctx, input }) => deleteAccount(ctx.deps, ctx.actor, input.userId)),
  changePassword: signedInProcedure.input(changePasswordInputSchema).mutation(({ ctx, input }) => changePassword(ctx.deps, ctx.actor, ctx.sessionId, input)),
  exportData: signedInProcedure.query(({ ctx }) => exportUserData(ctx.deps, ctx.actor)),
});
