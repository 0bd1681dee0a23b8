import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { changePasswordInputSchema } from '../../../shared/schemas/accounts';
import { errorFieldsOf, errorKeyOf, useI18n } from '../../i18n';
import { useTRPC } from '../../lib/trpc';
import { notify } from '../../components/ui/toast';
import { NewPasswordFields, PasswordField } from './fields';
import { SubmitButton } from './submit-button';
import styles from './profile.module.css';

type Values = z.input<typeof changePasswordInputSchema>;
const EMPTY: Values = { currentPassword: '', password: '', confirmPassword: '' };

/** The profile's "Byt lösenord": current password, then the new one twice; other devices are logged out. */
export function ChangePassword() {
  const { t, errorText } = useI18n();
  const p = t.accounts.profile;
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<Values>({ resolver: zodResolver(changePasswordInputSchema), mode: 'onSubmit', reValidateMode: 'onChange', defaultValues: EMPTY });

  const close = () => {
    reset(EMPTY);
    setOpen(false);
  };
  const change = useMutation(
    trpc.users.changePassword.mutationOptions({
      onSuccess(data) {
        notify(t.messages[data.message], 'success', 5000);
        close();
      },
      onError(error) {
        const fields = errorFieldsOf(error);
        if (fields.currentPassword) return setError('currentPassword', { message: fields.currentPassword }, { shouldFocus: true });
        if (errorKeyOf(error) === 'noPasswordYet') close();
        notify(errorText(error), 'error', 5000);
      },
    }),
  );

  return (
    <section className={styles.section} aria-labelledby="profile-password-title">
      <h2 id="profile-password-title" className={styles.sectionTitle}>
        {p.passwordTitle}
      </h2>
      {open ? (
        <form
          noValidate
          aria-labelledby="profile-password-title"
          onSubmit={handleSubmit((values) => {
            if (!change.isPending) change.mutate(values);
          })}
        >
          <PasswordField
            id="profile-currentPassword"
            label={p.currentPassword}
            autoComplete="current-password"
            error={errors.currentPassword?.message}
            registration={register('currentPassword')}
          />
          <NewPasswordFields
            idPrefix="profile-new"
            errors={errors}
            password={register('password', { deps: ['confirmPassword'] })}
            confirmPassword={register('confirmPassword')}
          />
          <div className={styles.formActions}>
            <button type="button" className="btn" onClick={close}>
              {p.cancel}
            </button>
            <SubmitButton busy={change.isPending} label={p.passwordSave} busyLabel={p.saving} wide={false} />
          </div>
        </form>
      ) : (
        <>
          <p id="profile-password-hint" className={styles.hint}>
            {p.passwordHint}
          </p>
          <div className={styles.actions}>
            <button type="button" className="btn btn-outline" aria-describedby="profile-password-hint" onClick={() => setOpen(true)}>
              {p.passwordChange}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
