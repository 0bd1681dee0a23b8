import { useLocation } from 'wouter';
import { useI18n } from '../../i18n';
import { notify } from '../../components/ui/toast';
import { currentPlace, loginHref } from './sign-in';

/**
 * Tells a visitor that an action needs an account, with a "Logga in" button on the notice that
 * comes back to this page after the login (the place is read at the click, so it is current).
 */
export function useAskToLogIn() {
  const { t } = useI18n();
  const [, navigate] = useLocation();
  return (message: string) => notify(message, 'info', 6000, { label: t.common.nav.login, onClick: () => navigate(loginHref(currentPlace())) });
}
