import { useEffect, useId, useRef } from 'react';
import { useLocation } from 'wouter';
import { useI18n } from '../../i18n';
import { useLoginHref } from '../../features/accounts/sign-in';
import styles from './login-prompt.module.css';
import { inSiteName } from '../../../shared/schemas/site-settings';
import { useSiteText } from '../../lib/site-text';

/**
 * The prompt itself, loaded only when it is about to be shown: a panel at the bottom of the
 * screen, not a modal. Focus stays where the visitor has it (they may be typing); Escape, the
 * close button or a tap anywhere outside closes it.
 */
export default function LoginPromptDialog({ onClose }: { onClose(): void }) {
  const { t } = useI18n();
  const [, navigate] = useLocation();
  const p = t.common.loginPrompt;
  const site = useSiteText();
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);
  // Back to this page after the login, not to the profile.
  const loginHref = useLoginHref();
  const go = (path: string) => {
    onClose();
    navigate(path);
  };

  useEffect(() => {
    const outside = (event: PointerEvent) => {
      if (panel.current && event.target instanceof Node && !panel.current.contains(event.target)) onClose();
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [onClose]);

  return (
    <aside ref={panel} className={styles.panel} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        {inSiteName(p.title, site.name)}
      </h2>
      <p className={styles.text}>{p.text}</p>
      <div className={styles.actions}>
        <button type="button" className="btn btn-primary" onClick={() => go(loginHref)}>
          {p.login}
        </button>
        <button type="button" className="btn btn-outline" onClick={() => go('/registration')}>
          {p.register}
        </button>
      </div>
      <button type="button" className={styles.close} onClick={onClose} aria-label={t.common.close}>
        ×
      </button>
    </aside>
  );
}
