import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useSearch } from 'wouter';
import type { z } from 'zod';
import { resetPasswordInputSchema } from '../../shared/schemas/accounts';
import { NewPasswordFields } from '../features/accounts/fields';
import { errorKeyOf, useI18n } from '../i18n';
import { useTRPC } from '../lib/trpc';
import { SubmitButton } from '../features/accounts/submit-button';
import styles from '../features/accounts/account-page.module.css';

type Values = z.input<typeof resetPasswordInputSchema>;
const LINK_ERRORS = new Set(['tokenMissing', 'tokenExpired', 'tokenUsed']);

/** /reset-password?token=…: the link from the reset mail lands here. */
export default function ResetPasswordPage() {
  const { t, errorText } = useI18n();
  const p = t.accounts.reset;
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const trpc = useTRPC();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Values>({ resolver: zodResolver(resetPasswordInputSchema), mode: 'onTouched', defaultValues: { token, password: '', confirmPassword: '' } });
  const reset = useMutation(trpc.users.resetPassword.mutationOptions());
  const linkBroken = !token || (reset.isError && LINK_ERRORS.has(errorKeyOf(reset.error) ?? ''));

  return (
    <div className={`container page ${styles.page}`}>
      <div className={`card ${styles.card}`}>
        <header className={styles.header}>
          <h1 className={styles.title}>{p.title}</h1>
          {!reset.isSuccess && !linkBroken ? <p className={styles.subtitle}>{p.intro}</p> : null}
        </header>
        {reset.isSuccess ? (
          <div role="status">
            <p className="notice notice-success">{t.messages[reset.data.message]}</p>
            <Link href="/login" className={`btn btn-primary ${styles.wide}`}>
              {p.toLogin}
            </Link>
          </div>
        ) : linkBroken ? (
          <div role="alert">
            <p className="notice notice-error">{token ? errorText(reset.error) : t.messages.tokenMissing}</p>
            <Link href="/forgot-password" className={`btn btn-primary ${styles.wide}`}>
              {p.requestNew}
            </Link>
          </div>
        ) : (
          <form
            noValidate
            aria-label={p.title}
            onSubmit={handleSubmit((values) => {
              if (!reset.isPending) reset.mutate({ ...values, token });
            })}
          >
            {reset.isError ? (
              <p className="notice notice-error" role="alert">
                {errorText(reset.error)}
              </p>
            ) : null}
            <NewPasswordFields
              idPrefix="reset"
              errors={errors}
              password={register('password', { deps: ['confirmPassword'] })}
              confirmPassword={register('confirmPassword')}
            />
            <SubmitButton busy={reset.isPending} label={p.submit} busyLabel={p.saving} />
          </form>
        )}
      </div>
    </div>
  );
}
