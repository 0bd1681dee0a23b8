import { lazy, Suspense, useEffect, useState } from 'react';

export type ToastKind = 'success' | 'error' | 'info';

// The toast machinery (Ark UI's Toaster) is ~8 KB of gzip that a first visit rarely needs, so it
// loads with the first notice. Notices created before the toaster mounts are kept by its store
// and shown as soon as it subscribes.
const loadToaster = () => import('./toaster');
const RealToaster = lazy(loadToaster);
let wanted = false;
let mountHost: (() => void) | null = null;

/** Shows a notice; it auto-hides after 3 s unless a duration is given. */
export function notify(message: string, kind: ToastKind = 'info', duration = 3000) {
  wanted = true;
  mountHost?.();
  loadToaster().then(
    (m) => m.show(message, kind, duration),
    () => {
      // Offline and the chunk never loaded: the visible form state still tells what happened.
    },
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
