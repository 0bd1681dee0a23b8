import type { ReactNode } from 'react';
import { Redirect, useLocation } from 'wouter';
import { useI18n } from '../../i18n';
import { useMe } from '../../lib/session';
import { Spinner } from '../../components/ui/spinner';

/**
 * Guards a page: a loading state while the session is checked, then the page, a redirect to
 * /login (coming back here after login), or the no-access notice for those without the page's
 * role (admin; moderator: a moderator or an admin). The server refuses the data either way; this
 * only decides what to show.
 */
export function RequireAuth({ children, role }: { children: ReactNode; role?: 'admin' | 'moderator' }) {
  const { me, isLoading } = useMe();
  const { t } = useI18n();
  const [location] = useLocation();
  if (isLoading) {
    return (
      <div className="container page" aria-busy="true">
        <Spinner label={t.common.loading} showLabel />
      </div>
    );
  }
  if (!me) {
    const next = encodeURIComponent(location + window.location.search + window.location.hash);
    return <Redirect to={`/login?next=${next}`} replace />;
  }
  const allowed = !role || (!me.isBanned && (me.isAdmin || (role === 'moderator' && me.isModerator)));
  if (!allowed) {
    return (
      <div className="container page">
        <p className="notice notice-error" role="alert">
          {t.common.noAccess}
        </p>
      </div>
    );
  }
  return <>{children}</>;
}
