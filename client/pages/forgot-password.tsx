import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { z } from 'zod';
import { emailSchema } from '../../shared/schemas/accounts';
import { checkWhenLeft, EmailField } from '../features/accounts/fields';
import { notify } from '../components/ui/toast';
import { useI18n } from '../i18n';
import { useTRPC } from '../lib/trpc';
import { SubmitButton } from '../features/accounts/submit-button';
import styles from '../features/accounts/account-page.module.css';

const schema = z.object({ email: emailSchema });

export default function ForgotPasswordPage() {
  const { t, lang, errorText } = useI18n();
  const p = t.accounts.forgot;
  const trpc = useTRPC();
  const {
    register,
    handleSubmit,
    trigger,
    formState: { errors },
  } = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema), mode: 'onSubmit', defaultValues: { email: '' } });
  const send = useMutation(trpc.users.forgotPassword.mutationOptions({ onError: (error) => notify(errorText(error), 'error', 3000) }));

  return (
    <div className={`container page ${styles.page}`}>
      <div className={`card ${styles.card}`}>
        <header className={styles.header}>
          <h1 className={styles.title}>{p.title}</h1>
          <p className={styles.subtitle}>{p.intro}</p>
        </header>
        {send.isSuccess ? (
          <p className="notice notice-success" role="status">
            {t.messages[send.data.message]}
          </p>
        ) : (
          <form
            noValidate
            aria-label={p.title}
            onSubmit={handleSubmit((values) => {
              if (!send.isPending) send.mutate({ email: values.email, language: lang });
            })}
          >
            <EmailField
              id="forgot-email"
              label={t.accounts.fields.email}
              error={errors.email?.message}
              registration={register('email', checkWhenLeft(trigger, 'email'))}
            />
            <SubmitButton busy={send.isPending} label={p.submit} busyLabel={p.sending} />
          </form>
        )}
      </div>
      <p className={styles.below}>
        <Link href="/login">{p.backToLogin}</Link>
      </p>
    </div>
  );
}
