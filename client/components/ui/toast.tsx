import { lazy, Suspense, useEffect, useState } from 'react';

export type ToastKind = 'success' | 'error' | 'info';
/** A button on the notice, e.g. "Logga in" that goes to the login page. */
export type ToastAction = { label: string; onClick(): void };

// The toast machinery (Ark UI's Toaster) is ~8 KB of gzip that a first visit rarely needs, so it
// loads with the first notice. Notices created before the toaster mounts are kept by its store
// and shown as soon as it subscribes.
const loadToaster = () => import('./toaster');
const RealToaster = lazy(loadToaster);
let wanted = false;
let mountHost: (() => void) | null = null;

/** Shows a notice; it auto-hides after 3 s unless a duration is given. */
export function notify(message: string, kind: ToastKind = 'info', duration = 3000, action?: ToastAction) {
  wanted = true;
  mountHost?.();
  loadToaster().then(
    (m) => m.show(message, kind, duration, action),
    () => {
      // Offline and the chunk never loaded: the visible form state still tells what happened.
    },
  );
}

/**
 * Takes every notice down, e.g. once a sign-in succeeds: an earlier "wrong password" must not
 * follow the user onto the page they reach.
 */
export function dismissNotices() {
  if (!wanted) return;
  void loadToaster().then(
    (m) => m.dismissAll(),
    () => {},
  );
}

/** Mounted once in the app; renders the real toaster from the first notice on. */
export function AppToaster() {
  const [on, setOn] = useState(wanted);
  useEffect(() => {
    mountHost = () => setOn(true);
    if (wanted) setOn(true);
    return () => {
      mountHost = null;
    };
  }, []);
  return on ? (
    <Suspense fallback={null}>
      <RealToaster />
    </Suspense>
  ) : null;
}
