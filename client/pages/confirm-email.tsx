import { useEffect, useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useSearch } from 'wouter';
import { PasswordField } from '../features/accounts/fields';
import { ResendConfirmation } from '../features/accounts/resend-confirmation';
import { SubmitButton } from '../features/accounts/submit-button';
import { Spinner } from '../components/ui/spinner';
import { errorKeyOf, isMessageKey, useI18n } from '../i18n';
import { useTRPC } from '../lib/trpc';
import styles from '../features/accounts/account-page.module.css';

const REDIRECT_MS = 3000;
/** The address was registered more than once: the link works with its registration's password. */
const PASSWORD_ERRORS = new Set(['confirmPasswordNeeded', 'confirmPasswordWrong']);

/** /users/confirm-email?token=…: the link from the confirmation mail lands here. */
export default function ConfirmEmailPage() {
  const { t } = useI18n();
  const c = t.accounts.confirm;
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const confirm = useMutation(trpc.users.confirmEmail.mutationOptions());
  const { mutate } = confirm;
  const sentFor = useRef<string | null>(null);
  const { register, handleSubmit } = useForm<{ password: string }>({ defaultValues: { password: '' } });

  useEffect(() => {
    // Once per token, even when React runs effects twice.
    if (!token || sentFor.current === token) return;
    sentFor.current = token;
    mutate({ token });
  }, [token, mutate]);

  // A link from "resend" carries no password: its receiver chooses one next, with the
  // one-time token the reply holds.
  const setPasswordToken = confirm.data?.setPasswordToken;
  const next = setPasswordToken ? `/reset-password?token=${encodeURIComponent(setPasswordToken)}` : '/login';
  const succeeded = confirm.isSuccess;
  useEffect(() => {
    if (!succeeded) return;
    const timer = setTimeout(() => navigate(next), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [succeeded, navigate, next]);

  const errorKey = confirm.isError ? errorKeyOf(confirm.error) : null;
  const asksPassword = errorKey !== null && PASSWORD_ERRORS.has(errorKey);
  const failureText = !token ? t.messages.tokenMissing : confirm.isError ? (errorKey && isMessageKey(errorKey) ? t.messages[errorKey] : c.fallbackError) : null;

  return (
    <div className={`container page ${styles.page}`}>
      <div className={`card ${styles.card}`}>
        <header className={styles.header}>
          <h1 className={styles.title}>{c.title}</h1>
        </header>
        {confirm.isPending ? <Spinner label={c.working} showLabel /> : null}
        {confirm.isSuccess ? (
          <div role="status">
            <p className="notice notice-success">{t.messages[confirm.data.message]}</p>
            <p className="muted">{setPasswordToken ? c.redirectingToPassword : c.redirecting}</p>
            <Link href={next} className={`btn btn-primary ${styles.wide}`}>
              {setPasswordToken ? c.choosePassword : c.toLogin}
            </Link>
          </div>
        ) : null}
        {asksPassword ? (
          <form
            noValidate
            aria-label={c.title}
            onSubmit={handleSubmit(({ password }) => {
              if (password && !confirm.isPending) mutate({ token, password });
            })}
          >
            <p className={errorKey === 'confirmPasswordWrong' ? 'notice notice-error' : 'notice'} role="alert">
              {failureText}
            </p>
            <PasswordField id="confirm-password" label={c.password} autoComplete="current-password" registration={register('password')} />
            <SubmitButton busy={confirm.isPending} label={c.confirmWithPassword} busyLabel={c.working} />
            <button type="button" className={`btn btn-outline ${styles.wide}`} onClick={() => mutate({ token, choosePassword: true })}>
              {c.chooseNewInstead}
            </button>
          </form>
        ) : failureText ? (
          <>
            <p className="notice notice-error" role="alert">
              {failureText}
            </p>
            <div className={styles.section}>
              <ResendConfirmation />
            </div>
          </>
        ) : null}
      </div>
    </div>
  );
}
