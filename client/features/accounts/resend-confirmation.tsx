import { useId } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { emailSchema } from '../../../shared/schemas/accounts';
import { useI18n } from '../../i18n';
import { useTRPC } from '../../lib/trpc';
import { notify } from '../../components/ui/toast';
import { EmailField } from './fields';
import { SubmitButton } from './submit-button';
import styles from './account-page.module.css';

const schema = z.object({ email: emailSchema });

/** An e-mail field and 'Resend Confirmation Email', for wherever an unconfirmed user ends up. */
export function ResendConfirmation({ initialEmail = '', title }: { initialEmail?: string; title?: string }) {
  const { t, lang, errorText } = useI18n();
  const trpc = useTRPC();
  const id = useId();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema), mode: 'onTouched', defaultValues: { email: initialEmail } });
  const resend = useMutation(
    trpc.users.resendConfirmation.mutationOptions({
      onSuccess: (data) => notify(t.messages[data.message], 'success', 3000),
      onError: (error) => notify(errorText(error), 'error', 3000),
    }),
  );

  return (
    <form
      noValidate
      aria-labelledby={`${id}-title`}
      onSubmit={handleSubmit((values) => {
        if (!resend.isPending) resend.mutate({ email: values.email, language: lang });
      })}
    >
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        {title ?? t.accounts.resend.title}
      </h2>
      <EmailField id={`${id}-email`} label={t.accounts.fields.email} error={errors.email?.message} registration={register('email')} />
      <SubmitButton className="btn btn-outline" busy={resend.isPending} label={t.accounts.resend.submit} busyLabel={t.accounts.resend.sending} />
    </form>
  );
}
