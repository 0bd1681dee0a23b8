import { useDeferredValue, useId, useState } from 'react';
import { Switch } from '@ark-ui/react/switch';
import { useInfiniteQuery } from '@tanstack/react-query';
import { LoadMore } from '../components/ui/load-more';
import { MailOutboxNotice } from '../features/accounts/mail-outbox-notice';
import type { AccountUser } from '../features/accounts/sign-in';
import { ConfirmDialog, Modal } from '../components/ui/modal';
import modalStyles from '../components/ui/modal.module.css';
import { Spinner } from '../components/ui/spinner';
import { notify } from '../components/ui/toast';
import { useI18n } from '../i18n';
import { useRefreshMe, useViewer } from '../lib/session';
import { useDeleteUser, useSetUserFlags } from '../features/accounts/mutations';
import { useTRPC } from '../lib/trpc';
import styles from '../features/accounts/user-table.module.css';

/** The flags an admin sets with a switch. */
type Flag = 'isBanned' | 'isAdmin' | 'isModerator';

function FlagSwitch(props: { kind: 'ban' | 'admin' | 'moderator'; label: string; checked: boolean; disabled: boolean; onChange(checked: boolean): void }) {
  return (
    <Switch.Root
      className={styles.switch}
      data-kind={props.kind}
      checked={props.checked}
      disabled={props.disabled}
      onCheckedChange={(details) => props.onChange(details.checked)}
    >
      <Switch.Control className={styles.control}>
        <Switch.Thumb className={styles.thumb} />
      </Switch.Control>
      <Switch.Label className="visually-hidden">{props.label}</Switch.Label>
      {/* Announced as a switch (on/off), not a checkbox. */}
      <Switch.HiddenInput role="switch" />
    </Switch.Root>
  );
}

/** /user-mng: every account with ban, admin and moderator toggles and delete (the server decides who may). */
export default function UserManagementPage() {
  const { t, errorText } = useI18n();
  const u = t.accounts.users;
  const trpc = useTRPC();
  const refreshMe = useRefreshMe();
  const me = useViewer();
  const searchId = useId();
  const [search, setSearch] = useState('');
  // The list follows the typing without a request per keystroke blocking the input.
  const q = useDeferredValue(search.trim());
  const list = useInfiniteQuery(trpc.users.page.infiniteQueryOptions({ q: q || undefined }, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const [deleting, setDeleting] = useState<AccountUser | null>(null);
  // A toggle shows its new position while the server decides; the reloaded list then has the
  // last word (a refused change flips back, which also resets the switch's own input).
  const [pending, setPending] = useState<{ userId: string; flag: Flag; value: boolean } | null>(null);
  // Banning asks for a reason, lifting a ban for a confirmation (issue 29, item 10).
  const [banning, setBanning] = useState<{ user: AccountUser; ban: boolean } | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState(false);

  // The list reloads after every change (the hooks wait for it), so what it shows is what the server stored.
  const setFlags = useSetUserFlags({
    onSuccess(_user, input) {
      notify(u.updated, 'success', 3000);
      if (input.userId === me?._id) void refreshMe();
    },
    onError: (error) => notify(errorText(error), 'error', 3000),
    onSettled: () => setPending(null),
  });
  const toggle = (userId: string, flag: Flag, value: boolean) => {
    setPending({ userId, flag, value });
    setFlags.mutate({ userId, [flag]: value });
  };
  const askBan = (user: AccountUser, ban: boolean) => {
    setReason('');
    setReasonError(false);
    setBanning({ user, ban });
  };
  const confirmBan = () => {
    if (!banning) return;
    const text = reason.trim();
    if (banning.ban && text === '') {
      setReasonError(true);
      return;
    }
    setPending({ userId: banning.user._id, flag: 'isBanned', value: banning.ban });
    setFlags.mutate(banning.ban ? { userId: banning.user._id, isBanned: true, banReason: text } : { userId: banning.user._id, isBanned: false });
    setBanning(null);
  };
  const shown = (user: AccountUser, flag: Flag) => (pending && pending.userId === user._id && pending.flag === flag ? pending.value : user[flag]);
  const remove = useDeleteUser({
    onSuccess() {
      setDeleting(null);
      notify(u.deleted, 'success', 3000);
    },
    onError: (error) => notify(errorText(error), 'error', 3000),
  });

  const busyId = pending?.userId ?? null;
  const users = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="container page">
      <h1 className={`page-title ${styles.title}`} id="users-title">
        {u.title}
      </h1>
      <p className={styles.intro}>{u.intro}</p>
      <MailOutboxNotice />
      <div className="field" role="search">
        <label htmlFor={searchId}>{u.search}</label>
        <input id={searchId} type="search" value={search} maxLength={200} autoComplete="off" onChange={(e) => setSearch(e.target.value)} />
      </div>
      {list.isPending ? <Spinner label={t.common.loading} showLabel /> : null}
      {list.isError ? (
        <p className="notice notice-error" role="alert">
          {u.loadFailed} {errorText(list.error)}
        </p>
      ) : null}
      {list.isSuccess ? (
        users.length === 0 ? (
          <p className="notice">{u.empty}</p>
        ) : (
          <div className={styles.scroll} role="region" aria-labelledby="users-title" tabIndex={0}>
            {/* Explicit roles keep the table a table for screen readers when phones show it as cards. */}
            <table className={styles.table} role="table">
              <caption className="visually-hidden">{u.tableLabel}</caption>
              <thead role="rowgroup">
                <tr role="row">
                  <th scope="col" role="columnheader">
                    {u.number}
                  </th>
                  <th scope="col" role="columnheader">
                    {u.firstName}
                  </th>
                  <th scope="col" role="columnheader">
                    {u.lastName}
                  </th>
                  <th scope="col" role="columnheader">
                    {u.email}
                  </th>
                  <th scope="col" role="columnheader">
                    {u.role}
                  </th>
                  <th scope="col" role="columnheader" className={styles.center}>
                    {u.ban}
                  </th>
                  <th scope="col" role="columnheader" className={styles.center}>
                    {u.admin}
                  </th>
                  <th scope="col" role="columnheader" className={styles.center}>
                    {u.moderator}
                  </th>
                  <th scope="col" role="columnheader" className={styles.center}>
                    <span className="visually-hidden">{u.delete}</span>
                  </th>
                </tr>
              </thead>
              <tbody role="rowgroup">
                {users.map((user, index) => {
                  const name = `${user.firstName} ${user.lastName}`.trim();
                  const isMe = user._id === me?._id;
                  const busy = busyId === user._id;
                  return (
                    <tr key={user._id} role="row">
                      <td role="cell" className={styles.num}>
                        {index + 1}
                      </td>
                      <td role="cell" data-label={u.firstName} className={styles.first}>
                        {user.firstName}
                        {isMe ? <span className={styles.you}>{u.you}</span> : null}
                      </td>
                      <td role="cell" data-label={u.lastName} className={styles.last}>
                        {user.lastName}
                      </td>
                      <td role="cell" data-label={u.email} className={styles.email}>
                        {user.email}
                      </td>
                      <td role="cell" data-label={u.role} className={styles.roleCell}>
                        <span className={styles.role} data-admin={user.isAdmin || undefined}>
                          {user.isAdmin ? u.roleAdmin : user.isModerator ? u.roleModerator : u.roleUser}
                        </span>
                      </td>
                      <td role="cell" data-label={u.ban} className={`${styles.center} ${styles.banCell}`}>
                        <FlagSwitch
                          kind="ban"
                          label={u.banLabel(name)}
                          checked={shown(user, 'isBanned')}
                          disabled={busy || isMe}
                          onChange={(checked) => askBan(user, checked)}
                        />
                      </td>
                      <td role="cell" data-label={u.admin} className={`${styles.center} ${styles.adminCell}`}>
                        {/* Left enabled for banned users: trying shows the server's reason. */}
                        <FlagSwitch
                          kind="admin"
                          label={u.adminLabel(name)}
                          checked={shown(user, 'isAdmin')}
                          disabled={busy}
                          onChange={(checked) => toggle(user._id, 'isAdmin', checked)}
                        />
                      </td>
                      <td role="cell" data-label={u.moderator} className={`${styles.center} ${styles.moderatorCell}`}>
                        <FlagSwitch
                          kind="moderator"
                          label={u.moderatorLabel(name)}
                          checked={shown(user, 'isModerator')}
                          disabled={busy}
                          onChange={(checked) => toggle(user._id, 'isModerator', checked)}
                        />
                      </td>
                      <td role="cell" className={`${styles.center} ${styles.deleteCell}`}>
                        <button
                          type="button"
                          className="btn btn-danger btn-sm"
                          aria-label={u.deleteLabel(name)}
                          disabled={isMe}
                          onClick={() => setDeleting(user)}
                        >
                          {u.delete}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      <LoadMore query={list} label={u.loadMore} busyLabel={u.loadingMore} />

      <Modal
        open={banning !== null}
        onOpenChange={(open) => !open && setBanning(null)}
        role="alertdialog"
        size="md"
        title={banning ? (banning.ban ? u.banTitle : u.unbanTitle)(`${banning.user.firstName} ${banning.user.lastName}`.trim()) : ''}
        description={banning?.ban ? u.banText : u.unbanText}
      >
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            confirmBan();
          }}
        >
          {banning?.ban ? (
            <div className="field">
              <label htmlFor="ban-reason">{u.banReason}</label>
              <textarea
                id="ban-reason"
                rows={3}
                maxLength={500}
                value={reason}
                aria-invalid={reasonError || undefined}
                aria-describedby="ban-reason-hint"
                onChange={(event) => {
                  setReason(event.target.value);
                  if (event.target.value.trim()) setReasonError(false);
                }}
              />
              <p id="ban-reason-hint" className={reasonError ? 'field-error' : 'field-hint'} role={reasonError ? 'alert' : undefined}>
                {reasonError ? u.banReasonRequired : u.banReasonHint}
              </p>
            </div>
          ) : null}
          <div className={modalStyles.actions}>
            <button type="button" className="btn" onClick={() => setBanning(null)}>
              {u.deleteCancel}
            </button>
            <button type="submit" className="btn btn-danger">
              {banning?.ban ? u.banConfirm : u.unbanConfirm}
            </button>
          </div>
        </form>
      </Modal>

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={u.deleteTitle}
        text={u.deleteText}
        cancelLabel={u.deleteCancel}
        confirmLabel={u.deleteConfirm}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ userId: deleting._id })}
      />
    </div>
  );
}
