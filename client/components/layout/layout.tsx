import type { ReactNode } from 'react';

/** Replaced by the shell work: nav bar, drawer, footer, login prompt, scroll-to-top. */
export function Layout({ children }: { children: ReactNode }) {
  return <main id="main">{children}</main>;
}
