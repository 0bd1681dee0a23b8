import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'wouter';
import type { z } from 'zod';
import { profileInputSchema } from '../../shared/schemas/accounts';
import { ChangePassword } from '../features/accounts/change-password';
import { TextField } from '../features/accounts/fields';
import { SubmitButton } from '../features/accounts/submit-button';
import type { AccountUser } from '../features/accounts/sign-in';
import { DigestSwitch } from '../features/moderation/digest-switch';
import { MailSettings } from '../features/notifications/mail-settings';
import { MyBusinesses } from '../features/business/my-businesses';
import { MyPosts } from '../features/accounts/my-posts';
import { OwnModeratedPosts } from '../features/moderation/own-moderated-posts';
import { ImageUpload } from '../components/ui/image-upload';
import { ConfirmDialog } from '../components/ui/modal';
import { notify } from '../components/ui/toast';
import { errorKeyOf, isMessageKey, useI18n } from '../i18n';
import { useViewer } from '../lib/session';
import { useUpdateProfile } from '../features/accounts/mutations';
import { useTRPC } from '../lib/trpc';
import styles from '../features/accounts/profile.module.css';

/** /user: the signed-in user's profile (the route guard guarantees a user). */
export default function ProfilePage() {
  const me = useViewer();
  const [editing, setEditing] = useState(false);
  if (!me) return null;
  return (
    <div className={`container page ${styles.page}`}>
      {editing && !me.isBanned ? <EditProfile me={me} onDone={() => setEditing(false)} /> : <ViewProfile me={me} onEdit={() => setEditing(true)} />}
    </div>
  );
}

function Avatar({ user }: { user: AccountUser }) {
  const { t } = useI18n();
  const name = `${user.firstName} ${user.lastName}`.trim();
  if (user.image) return <img className={styles.avatar} src={user.image} alt={t.accounts.profile.avatarAlt(name)} width={96} height={96} />;
  const initials = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();
  return (
    <span className={`${styles.avatar} ${styles.initials}`} aria-hidden="true">
      {initials}
    </span>
  );
}

/** Leaving the account: the server forgets the session, the browser everything it cached. */
function useLeave() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return (to = '/login') => {
    navigate(to, { replace: true });
    queryClient.clear();
  };
}

function ViewProfile({ me, onEdit }: { me: AccountUser; onEdit(): void }) {
  const { t, errorText } = useI18n();
  const p = t.accounts.profile;
  const trpc = useTRPC();
  const leave = useLeave();
  const [confirmDelete, setConfirmDelete] = useState(false);

  // Even when the server refuses (the session had already ended), the user wanted out.
  const logout = useMutation(trpc.users.logout.mutationOptions({ onSettled: () => leave() }));
  const remove = useMutation(
    trpc.users.delete.mutationOptions({
      onSuccess(data) {
        if (!data.success) return notify(p.deleteFailed, 'error', 3000);
        setConfirmDelete(false);
        leave('/');
        notify(p.deleted, 'success', 8000);
      },
      onError(error) {
        const key = errorKeyOf(error);
        notify(key && isMessageKey(key) && key !== 'internal' ? errorText(error) : p.deleteError, 'error', 3000);
      },
    }),
  );

  return (
    <>
      <h1 className={`page-title ${styles.title}`}>
        {p.welcome} {me.firstName}
      </h1>
      <section className={`card ${styles.card}`} aria-labelledby="profile-name">
        <div className={styles.identity}>
          <Avatar user={me} />
          <div className={styles.who}>
            <h2 id="profile-name" className={styles.name}>
              {me.firstName} {me.lastName}
            </h2>
            <p className={styles.email}>
              <span className="visually-hidden">{p.email}: </span>
              {me.email}
            </p>
            {me.isAdmin ? <span className={styles.badge}>{t.accounts.users.roleAdmin}</span> : null}
          </div>
        </div>
        {me.isBanned ? (
          <p className="notice notice-error" role="status">
            {p.bannedNotice}
          </p>
        ) : null}
        <div className={styles.actions}>
          {me.isBanned ? null : (
            <button type="button" className="btn btn-primary" onClick={onEdit}>
              {p.edit}
            </button>
          )}
          <button type="button" className="btn btn-outline" onClick={() => logout.mutate()} aria-disabled={logout.isPending || undefined}>
            {logout.isPending ? p.loggingOut : p.logout}
          </button>
        </div>

        {me.isBanned ? null : <ChangePassword />}

        <p className={styles.section}>
          <Link href={`/u/${encodeURIComponent(me._id)}`} className="btn btn-outline" data-testid="public-profile-link">
            {p.publicProfile}
          </Link>
        </p>

        <MyPosts />
        <OwnModeratedPosts />

        <MailSettings />

        <MyBusinesses className={styles.section} titleClassName={styles.sectionTitle} />

        <section className={styles.section} aria-labelledby="profile-data-title">
          <h2 id="profile-data-title" className={styles.sectionTitle}>
            {p.dataTitle}
          </h2>
          <p id="profile-download-hint" className={styles.hint}>
            {p.downloadHint}
          </p>
          <div className={styles.actions}>
            <a className="btn btn-outline" href="/api/users/me/export" download aria-describedby="profile-download-hint">
              {p.download}
            </a>
            <button type="button" className="btn btn-danger" onClick={() => setConfirmDelete(true)}>
              {p.deleteAccount}
            </button>
          </div>
        </section>

        {(me.isAdmin || me.isModerator) && !me.isBanned ? (
          <nav className={styles.section} aria-labelledby="profile-admin-title">
            <h2 id="profile-admin-title" className={styles.sectionTitle}>
              {me.isAdmin ? p.adminTools : p.moderatorTools}
            </h2>
            <div className={styles.adminLinks}>
              {me.isAdmin ? (
                <>
                  <Link href="/user-mng" className="btn btn-outline">
                    {p.userManagement}
                  </Link>
                  <Link href="/business-mng" className="btn btn-outline">
                    {p.businessManagement}
                  </Link>
                  <ContactInboxLink />
                  <Link href="/claims" className="btn btn-outline">
                    {t.owners.claims.menuItem}
                  </Link>
                  <Link href="/site-settings" className="btn btn-outline">
                    {t.accounts.siteSettings.menu}
                  </Link>
                </>
              ) : null}
              <Link href="/cmt-mng" className="btn btn-outline">
                {p.cmtManagement}
              </Link>
              <Link href="/mod-queue" className="btn btn-outline">
                {t.moderation.menu.queue}
              </Link>
              <Link href="/mod-log" className="btn btn-outline">
                {t.moderation.menu.log}
              </Link>
            </div>
            {me.isAdmin ? <DigestSwitch /> : null}
          </nav>
        ) : null}
      </section>

      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={p.deleteTitle}
        text={p.deleteText}
        cancelLabel={p.deleteCancel}
        confirmLabel={p.deleteConfirm}
        busy={remove.isPending}
        onConfirm={() => remove.mutate({ userId: me._id })}
      />
    </>
  );
}

type ProfileValues = z.input<typeof profileInputSchema>;

function EditProfile({ me, onDone }: { me: AccountUser; onDone(): void }) {
  const { t, lang, errorText } = useI18n();
  const p = t.accounts.profile;
  // undefined: keep the avatar; null: remove it; a string: the freshly uploaded one.
  const [imageId, setImageId] = useState<string | null | undefined>(undefined);
  const [uploading, setUploading] = useState(false);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<ProfileValues>({
    resolver: zodResolver(profileInputSchema),
    mode: 'onTouched',
    defaultValues: { firstName: me.firstName, lastName: me.lastName, nameDisplay: me.nameDisplay },
  });

  const save = useUpdateProfile({
    onSuccess() {
      notify(p.saved, 'success', 3000);
      onDone();
    },
    onError: (error) => notify(errorText(error), 'error', 3000),
  });

  const busy = save.isPending || uploading;
  const [firstNow, lastNow] = watch(['firstName', 'lastName']);
  const initial = Array.from(lastNow.trim())[0];
  return (
    <>
      <h1 className={`page-title ${styles.title}`}>{p.editTitle}</h1>
      <form
        className={`card ${styles.card}`}
        noValidate
        aria-label={p.editTitle}
        onSubmit={handleSubmit((values) => {
          if (!busy) save.mutate({ firstName: values.firstName, lastName: values.lastName, nameDisplay: values.nameDisplay, imageId, language: lang });
        })}
      >
        <div className={styles.avatarField}>
          <ImageUpload
            kind="avatar"
            label={p.chooseAvatar}
            currentUrl={me.image}
            round
            onChange={(image) => setImageId(image ? image.id : null)}
            onBusyChange={setUploading}
          />
        </div>
        <TextField
          id="profile-firstName"
          label={t.accounts.fields.firstName}
          autoComplete="given-name"
          error={errors.firstName?.message}
          registration={register('firstName')}
        />
        <TextField
          id="profile-lastName"
          label={t.accounts.fields.lastName}
          autoComplete="family-name"
          error={errors.lastName?.message}
          registration={register('lastName')}
        />
        <fieldset className={styles.nameDisplay}>
          <legend>{p.nameDisplayLegend}</legend>
          <label>
            <input type="radio" value="initial" {...register('nameDisplay')} />
            <span>{p.nameDisplayInitial(firstNow, initial ? `${initial.toLocaleUpperCase('sv-SE')}.` : '')}</span>
          </label>
          <label>
            <input type="radio" value="full" {...register('nameDisplay')} />
            <span>{p.nameDisplayFull(firstNow, lastNow)}</span>
          </label>
        </fieldset>
        <div className={styles.formActions}>
          <button type="button" className="btn" onClick={onDone}>
            {p.cancel}
          </button>
          <SubmitButton busy={save.isPending} disabled={uploading} label={p.save} busyLabel={p.saving} wide={false} />
        </div>
      </form>
    </>
  );
}

/** The admin tools' link to the contact inbox, with how many messages are unread. */
function ContactInboxLink() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const inbox = useQuery(trpc.site.contactMessages.queryOptions({ limit: 1 }));
  return (
    <Link href="/contact-inbox" className="btn btn-outline">
      {t.accounts.inbox.menu(inbox.data?.unread ?? 0)}
    </Link>
  );
}
