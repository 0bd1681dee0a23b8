import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { useMe } from '../../lib/session';
import { LOGIN_PROMPT_SHOWN_KEY } from './login-prompt-key';

const LoginPromptDialog = lazy(() => import('./login-prompt-dialog'));

const DELAY_MS = 10_000;

/** Pages where asking a visitor to log in would interrupt them doing just that. */
const ACCOUNT_PATHS = new Set(['/login', '/logIn', '/registration', '/users/confirm-email', '/google-logIn', '/forgot-password', '/reset-password']);

function alreadyShown(): boolean {
  try {
    return localStorage.getItem(LOGIN_PROMPT_SHOWN_KEY) === '1';
  } catch {
    // Storage can be blocked; then showing it once per page load is the best we can do.
    return false;
  }
}

function markShown() {
  try {
    localStorage.setItem(LOGIN_PROMPT_SHOWN_KEY, '1');
  } catch {
    // See alreadyShown.
  }
}

/**
 * Invites visitors to log in or register 10 s after the site loads, at most once per browser
 * (localStorage: a link opened in a new tab does not ask again). It is a panel at the bottom,
 * not a modal: it takes no focus from what the visitor is doing, and closes by its close
 * button, Escape or a tap outside it (issue 29.9, over docs/product.md §8's once per session).
 */
export function LoginPrompt() {
  const { me, isLoading } = useMe();
  const [location] = useLocation();
  const [due, setDue] = useState(false);
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState(false);

  useEffect(() => {
    // localStorage is first read when the time comes, not during the page's start: the first
    // access can block the main thread for a while on a slow phone.
    const timer = window.setTimeout(() => setDue(true), DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  useEffect(() => {
    if (!due || isLoading) return;
    setDue(false);
    if (me || ACCOUNT_PATHS.has(location) || alreadyShown()) return;
    markShown();
    setShown(true);
    setOpen(true);
  }, [due, isLoading, me, location]);

  // Always there once due, so screen readers hear the panel as it appears (it takes no focus).
  return (
    <div aria-live="polite">
      {shown && open ? (
        <Suspense fallback={null}>
          <LoginPromptDialog onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
