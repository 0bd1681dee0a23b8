import { useEffect, useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, useSearch } from 'wouter';
import { takeRememberedNext, useCompleteSignIn } from '../features/accounts/sign-in';
import { Spinner } from '../components/ui/spinner';
import { errorKeyOf, isMessageKey, useI18n } from '../i18n';
import { useTRPC } from '../lib/trpc';
import styles from '../features/accounts/account-page.module.css';

/**
 * /google-logIn: Google sends the browser back here with code and state. The server checks the
 * state against its cookie, exchanges the code and signs in; this page only hands them over.
 */
export default function GoogleLoginPage() {
  const { t, lang } = useI18n();
  const g = t.accounts.google;
  const params = new URLSearchParams(useSearch());
  const code = params.get('code');
  const state = params.get('state');
  const trpc = useTRPC();
  const completeSignIn = useCompleteSignIn();
  const callback = useMutation(trpc.users.googleCallback.mutationOptions({ onSuccess: (data) => completeSignIn(data.user, takeRememberedNext()) }));
  const { mutate } = callback;
  const sent = useRef(false);

  useEffect(() => {
    if (!code || !state || sent.current) return;
    sent.current = true;
    mutate({ code, state, language: lang });
  }, [code, state, lang, mutate]);

  const key = callback.isError ? errorKeyOf(callback.error) : null;
  // A banned account: the sign-in left a restricted session, so the person can still reach their data.
  const banReason = key === 'banned' ? ((callback.error?.data as { banReason?: string | null } | undefined)?.banReason ?? null) : null;
  // Without a code the provider refused or the user cancelled; the description's wording either way.
  const failure = !code || !state ? g.failed : callback.isError ? (key && isMessageKey(key) && key !== 'internal' ? t.messages[key] : g.failed) : null;

  return (
    <div className={`container page ${styles.page}`}>
      <div className={`card ${styles.card}`}>
        <header className={styles.header}>
          <h1 className={styles.title}>{g.title}</h1>
        </header>
        {key === 'banned' ? (
          <div role="alert" data-testid="banned-notice">
            <p className="notice notice-error">
              <strong>{t.messages.banned}</strong>
              {banReason ? (
                <>
                  {' '}
                  {t.accounts.login.bannedReason} <q>{banReason}</q>
                </>
              ) : null}
            </p>
            {/* A full load shows the profile with export and delete. */}
            <p>
              <a href="/user">{t.accounts.login.bannedData}</a>
            </p>
          </div>
        ) : failure ? (
          <>
            <p className="notice notice-error" role="alert">
              {failure}
            </p>
            <Link href="/login" className={`btn btn-primary ${styles.wide}`}>
              {g.tryAgain}
            </Link>
          </>
        ) : (
          <Spinner label={g.working} showLabel />
        )}
      </div>
    </div>
  );
}
