import { useState, type FocusEvent, type InputHTMLAttributes } from 'react';
import type { FieldPath, FieldValues, UseFormRegisterReturn, UseFormTrigger } from 'react-hook-form';
import { useI18n } from '../../i18n';
import { FormField } from '../../components/ui/form-field';
import styles from './fields.module.css';

type FieldProps = {
  id: string;
  label: string;
  /** The form's error for this field: a message key, translated here. */
  error?: string;
  hint?: string;
  registration: UseFormRegisterReturn;
} & Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'inputMode' | 'spellCheck' | 'autoFocus'>;

/**
 * For forms in react-hook-form's `onSubmit` mode: checks a field when the user leaves it after
 * typing in it. An empty field the user only passed through (or left for a link below the form)
 * waits for the submit, so no error appears under it and nothing below it moves away from a
 * click. Use as `register('email', checkWhenLeft(trigger, 'email'))`.
 */
export function checkWhenLeft<T extends FieldValues>(trigger: UseFormTrigger<T>, name: FieldPath<T> | FieldPath<T>[]) {
  return {
    onBlur(event: FocusEvent<HTMLInputElement>) {
      if (event.target.value !== '') void trigger(name);
    },
  };
}

/** A labelled input whose error (shown once edited and left, or after a submit) is read out with it. */
export function TextField({ id, label, error, hint, registration, type = 'text', ...rest }: FieldProps) {
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      {(control) => <input type={type} {...rest} {...control} {...registration} />}
    </FormField>
  );
}

/** An e-mail address: the keyboard, autofill and spelling settings every form wants for one. */
export function EmailField(props: Omit<FieldProps, 'type' | 'inputMode' | 'autoComplete' | 'spellCheck'>) {
  return <TextField type="email" inputMode="email" autoComplete="email" spellCheck={false} {...props} />;
}

function EyeIcon({ open }: { open: boolean }) {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {open ? null : <path d="M3 3l18 18" />}
    </svg>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField({ id, label, error, hint, registration, autoComplete }: Omit<FieldProps, 'type'>) {
  const { t } = useI18n();
  const [shown, setShown] = useState(false);
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      {(control) => (
        <div className={styles.passwordWrap}>
          <input type={shown ? 'text' : 'password'} autoComplete={autoComplete} spellCheck={false} autoCapitalize="none" {...control} {...registration} />
          <button
            type="button"
            className={styles.toggle}
            onClick={() => setShown((s) => !s)}
            // One fixed name with a pressed state, so a screen reader hears "Show password, pressed".
            aria-label={t.accounts.fields.showPassword}
            aria-pressed={shown}
            aria-controls={id}
          >
            <EyeIcon open={!shown} />
          </button>
        </div>
      )}
    </FormField>
  );
}

type NewPasswordProps = {
  /** Ids are `${idPrefix}-password` and `${idPrefix}-confirmPassword`. */
  idPrefix: string;
  /** The first field's label; "Nytt lösenord" unless given. */
  passwordLabel?: string;
  errors: { password?: { message?: string }; confirmPassword?: { message?: string } };
  /** The form's registrations; the password's should name `deps: ['confirmPassword']`. */
  password: UseFormRegisterReturn;
  confirmPassword: UseFormRegisterReturn;
};

/** A new password and its confirmation, as registration, the reset link and the profile ask for them. */
export function NewPasswordFields({ idPrefix, passwordLabel, errors, password, confirmPassword }: NewPasswordProps) {
  const { t } = useI18n();
  return (
    <>
      <PasswordField
        id={`${idPrefix}-password`}
        label={passwordLabel ?? t.accounts.fields.newPassword}
        autoComplete="new-password"
        hint={t.accounts.fields.passwordHint}
        error={errors.password?.message}
        registration={password}
      />
      <PasswordField
        id={`${idPrefix}-confirmPassword`}
        label={t.accounts.fields.confirmPassword}
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        registration={confirmPassword}
      />
    </>
  );
}
