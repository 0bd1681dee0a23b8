import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, Redirect, useSearch } from 'wouter';
import { loginInputSchema, type LoginInput } from '../../shared/schemas/accounts';
import { EmailField, PasswordField } from '../features/accounts/fields';
import { GoogleButton } from '../features/accounts/google-button';
import { ResendConfirmation } from '../features/accounts/resend-confirmation';
import { safeNext, useCompleteSignIn } from '../features/accounts/sign-in';
import { notify } from '../components/ui/toast';
import { errorKeyOf, useI18n } from '../i18n';
import { useViewer } from '../lib/session';
import { useTRPC } from '../lib/trpc';
import { SubmitButton } from '../features/accounts/submit-button';
import styles from '../features/accounts/account-page.module.css';

/**
 * The e-mail form straight away: with e-mail the only way in, a first screen with one button
 * ("Logga in med e-post") was a step that asked nothing (issue 29.16). Where Google is set up,
 * its button follows the form.
 */
export default function LoginPage() {
  const { t } = useI18n();
  const a = t.accounts.login;
  const next = safeNext(new URLSearchParams(useSearch()).get('next'));
  const me = useViewer();

  // Someone already signed in has nothing to do here.
  if (me) return <Redirect to={next} replace />;

  return (
    <div className={`container page ${styles.page}`}>
      <div className={`card ${styles.card}`}>
        <EmailLogin next={next} />
        <GoogleButton next={next} className={`${styles.wide} ${styles.google}`} />
      </div>
      <p className={styles.below}>
        {a.notMember}
        <Link href="/registration">{a.signUp}</Link>
      </p>
    </div>
  );
}

function EmailLogin({ next }: { next: string }) {
  const { t } = useI18n();
  const a = t.accounts.login;
  const trpc = useTRPC();
  const completeSignIn = useCompleteSignIn();
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  // A banned account's login: the reason stays on screen (no toast), with the way to its data.
  const [banned, setBanned] = useState<{ reason: string | null } | null>(null);
  // Checked when sent, then as the user corrects: leaving the focused e-mail field for one of
  // the links below must not put an error above them and move them away from the click.
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput>({ resolver: zodResolver(loginInputSchema), mode: 'onSubmit', defaultValues: { email: '', password: '' } });

  const login = useMutation(
    trpc.users.login.mutationOptions({
      onSuccess: (data) => completeSignIn(data.user, next),
      onError(error, input) {
        // The description's error catalogue: its wording for the documented replies.
        const key = errorKeyOf(error);
        const message =
          key === 'loginInvalid'
            ? a.notRegistered
            : key === 'loginWrongPassword'
              ? a.wrongPassword
              : key === 'emailNotConfirmed' || key === 'banned' || key === 'tooManyRequests'
                ? t.messages[key]
                : a.otherError;
        setUnconfirmed(key === 'emailNotConfirmed' ? input.email : null);
        if (key === 'banned') {
          setBanned({ reason: (error.data as { banReason?: string | null } | undefined)?.banReason ?? null });
          return;
        }
        setBanned(null);
        notify(message, 'error', 2000);
      },
    }),
  );

  return (
    <>
      <header className={styles.header}>
        <h1 className={styles.title}>{a.title}</h1>
        <p className={styles.subtitle}>{a.subtitle}</p>
      </header>
      <form
        noValidate
        aria-label={a.title}
        onSubmit={handleSubmit((values) => {
          if (!login.isPending) login.mutate(values);
        })}
      >
        <EmailField id="login-email" label={t.accounts.fields.email} autoFocus error={errors.email?.message} registration={register('email')} />
        <PasswordField
          id="login-password"
          label={t.accounts.fields.password}
          autoComplete="current-password"
          error={errors.password?.message}
          registration={register('password')}
        />
        <SubmitButton busy={login.isPending} label={a.submit} busyLabel={a.submitting} />
      </form>
      <div className={styles.links}>
        <Link href="/forgot-password">{a.forgot}</Link>
      </div>
      {banned ? (
        <div role="alert" className={styles.section} data-testid="banned-notice">
          <p className="notice notice-error">
            <strong>{t.messages.banned}</strong>
            {banned.reason ? (
              <>
                {' '}
                {a.bannedReason} <q>{banned.reason}</q>
              </>
            ) : null}
          </p>
          {/* The login left a restricted session: a full load shows the profile with export and delete. */}
          <p>
            <a href="/user">{a.bannedData}</a>
          </p>
        </div>
      ) : null}
      {unconfirmed ? (
        <div role="status" className={styles.section}>
          <p className={`notice ${styles.notice}`}>
            {t.messages.emailNotConfirmed}. {a.resendOffer}
          </p>
          <ResendConfirmation initialEmail={unconfirmed} />
        </div>
      ) : null}
    </>
  );
}
