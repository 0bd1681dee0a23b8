import { useLocation } from 'wouter';
import { useI18n } from '../../i18n';
import { useLoginHref } from '../accounts/sign-in';
import { Modal } from '../ui/modal';
import styles from './login-prompt.module.css';

/** The prompt itself, loaded only when it is about to be shown. */
export default function LoginPromptDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useI18n();
  const [, navigate] = useLocation();
  const p = t.common.loginPrompt;
  // Back to this page after the login, not to the profile.
  const loginHref = useLoginHref();
  const go = (path: string) => {
    onOpenChange(false);
    navigate(path);
  };
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={p.title} description={p.text}>
      <div className={styles.actions}>
        <button type="button" className="btn btn-primary" onClick={() => go(loginHref)}>
          {p.login}
        </button>
        <button type="button" className="btn btn-outline" onClick={() => go('/registration')}>
          {p.register}
        </button>
      </div>
    </Modal>
  );
}
