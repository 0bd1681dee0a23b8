import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, Redirect, useLocation } from 'wouter';
import type { z } from 'zod';
import { registerInputSchema } from '../../shared/schemas/accounts';
import { AvatarPicker, type PickedAvatar } from '../features/accounts/avatar-picker';
import { checkWhenLeft, EmailField, NewPasswordFields, TextField } from '../features/accounts/fields';
import { GoogleButton } from '../features/accounts/google-button';
import { postForm } from '../features/accounts/post-form';
import { useGoogleEnabled } from '../features/accounts/sign-in';
import { Modal } from '../components/ui/modal';
import { notify } from '../components/ui/toast';
import { HoneypotField } from '../components/ui/honeypot-field';
import { isMessageKey, useI18n } from '../i18n';
import { useViewer } from '../lib/session';
import { useTRPC } from '../lib/trpc';
import { SubmitButton } from '../features/accounts/submit-button';
import styles from '../features/accounts/account-page.module.css';

type Values = z.input<typeof registerInputSchema>;
type Outcome = { kind: 'welcome'; firstName: string } | { kind: 'sent'; email: string } | null;

const IMAGE_ERRORS = new Set(['imageTooLarge', 'imageTooManyPixels', 'imageUnsupported']);

export default function RegistrationPage() {
  const { t, lang } = useI18n();
  const r = t.accounts.registration;
  const f = t.accounts.fields;
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const googleEnabled = useGoogleEnabled();
  const me = useViewer();
  const [avatar, setAvatar] = useState<PickedAvatar | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const {
    register,
    handleSubmit,
    reset,
    trigger,
    formState: { errors },
  } = useForm<Values>({
    resolver: zodResolver(registerInputSchema),
    // Errors show once a field was edited and left, or after a submit; never for a field only
    // passed through (the "Logga in" link below must not move away from a click), nor for the
    // emptied fields after a successful registration.
    mode: 'onSubmit',
    defaultValues: { firstName: '', lastName: '', email: '', password: '', confirmPassword: '', website: '' },
  });

  const submit = useMutation({
    // The REST door, not tRPC: the avatar must travel with the form (visitors cannot upload
    // on their own), and only a plain form post can report its upload progress.
    mutationFn: async (values: Values) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(values)) if (typeof value === 'string') form.append(name, value);
      form.append('language', lang);
      if (avatar) form.append('image', avatar.blob, avatar.name);
      setProgress(avatar ? 0 : null);
      try {
        return await postForm('/api/users/register', form, avatar ? setProgress : undefined);
      } finally {
        setProgress(null);
      }
    },
    onSuccess({ status, body }, values) {
      if (status === 201) {
        setOutcome({ kind: 'welcome', firstName: values.firstName.trim() });
        reset();
        setAvatar(null);
      } else if (status === 200) setOutcome({ kind: 'sent', email: values.email.trim() });
      else if (status === 409) notify(t.messages.emailAlreadyRegistered, 'error', 3000);
      else {
        const key = (body as { key?: unknown } | null)?.key;
        const known = typeof key === 'string' && isMessageKey(key) ? key : 'internal';
        notify(t.messages[known], 'error', IMAGE_ERRORS.has(known) ? 6000 : 3000);
      }
    },
  });

  const resend = useMutation(
    trpc.users.resendConfirmation.mutationOptions({
      onSuccess: (data) => notify(t.messages[data.message], 'success', 3000),
      onError: () => notify(t.common.genericError, 'error', 3000),
    }),
  );

  // Someone already signed in has an account; their profile is the place for it.
  if (me) return <Redirect to="/user" replace />;

  const busy = submit.isPending;
  return (
    <div className={`container page ${styles.page}`}>
      <div className={`card ${styles.card}`}>
        <header className={styles.header}>
          <h1 className={styles.title}>{r.title}</h1>
          <p className={styles.subtitle}>{r.subtitle}</p>
        </header>
        <form
          noValidate
          aria-label={r.title}
          onSubmit={handleSubmit((values) => {
            if (!busy) submit.mutate(values);
          })}
        >
          <AvatarPicker value={avatar} onChange={setAvatar} disabled={busy} />
          <TextField
            id="reg-firstName"
            label={f.firstName}
            autoComplete="given-name"
            error={errors.firstName?.message}
            registration={register('firstName', checkWhenLeft(trigger, 'firstName'))}
          />
          <TextField
            id="reg-lastName"
            label={f.lastName}
            autoComplete="family-name"
            error={errors.lastName?.message}
            registration={register('lastName', checkWhenLeft(trigger, 'lastName'))}
          />
          <EmailField id="reg-email" label={f.email} error={errors.email?.message} registration={register('email', checkWhenLeft(trigger, 'email'))} />
          <NewPasswordFields
            idPrefix="reg"
            passwordLabel={f.password}
            errors={errors}
            // A "must match" shown under the confirmation is checked again once the password changes.
            password={register('password', {
              deps: ['confirmPassword'],
              ...checkWhenLeft(trigger, errors.confirmPassword ? ['password', 'confirmPassword'] : 'password'),
            })}
            confirmPassword={register('confirmPassword', checkWhenLeft(trigger, 'confirmPassword'))}
          />
          <HoneypotField id="reg-website" registration={register('website')} />
          {progress !== null ? (
            <div className="field">
              <progress max={1} value={progress} aria-label={r.uploading} className={styles.wide} />
            </div>
          ) : null}
          <p className={styles.terms}>
            {r.termsBefore}
            <Link href="/terms-of-use">{r.termsLink}</Link>
            {r.termsAfter}
          </p>
          <SubmitButton busy={busy} label={r.submit} busyLabel={r.submitting} />
        </form>
        {googleEnabled ? (
          <>
            <p className={styles.divider}>{r.or}</p>
            <GoogleButton className={styles.wide} />
          </>
        ) : null}
      </div>
      <p className={styles.below}>
        {r.haveAccount}
        <Link href="/login">{r.logIn}</Link>
      </p>

      <Modal
        open={outcome?.kind === 'welcome'}
        onOpenChange={(open) => !open && setOutcome(null)}
        title={outcome?.kind === 'welcome' ? r.welcomeTitle(outcome.firstName) : ''}
        description={t.messages.registered}
      >
        <div className={styles.dialogActions}>
          <button type="button" className="btn btn-primary" onClick={() => navigate('/login')}>
            {r.toLogin}
          </button>
        </div>
      </Modal>

      <Modal open={outcome?.kind === 'sent'} onOpenChange={(open) => !open && setOutcome(null)} title={r.sentTitle} description={t.messages.confirmationResent}>
        <div className={styles.dialogActions}>
          <button
            type="button"
            className="btn btn-primary"
            aria-disabled={resend.isPending || undefined}
            onClick={() => {
              if (outcome?.kind === 'sent' && !resend.isPending) resend.mutate({ email: outcome.email, language: lang });
            }}
          >
            {resend.isPending ? <span className={styles.busy} aria-hidden="true" /> : null}
            {resend.isPending ? r.resending : r.resend}
          </button>
        </div>
      </Modal>
    </div>
  );
}
