import { useI18n, LANG_PARAM } from '../../i18n';
import { notify } from '../ui/toast';
import styles from './share-button.module.css';

type Props = {
  /** The page to share, e.g. `/business/<id>`; the link names the page's language. */
  path: string;
  /** What the share sheet shows as the title. */
  title: string;
  /** The button's accessible name (begins with its visible text). */
  label: string;
  disabled?: boolean;
  className?: string;
};

/**
 * "Dela": the device's own share sheet (Web Share API) where there is one, else the link is
 * copied and a notice says so. The link carries the language the page is read in, so the one who
 * opens it reads it in the same language.
 */
export function ShareButton({ path, title, label, disabled, className }: Props) {
  const { t, lang } = useI18n();
  const s = t.common.share;
  const share = async () => {
    const url = new URL(path, window.location.origin);
    url.searchParams.set(LANG_PARAM, lang);
    const link = url.href;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url: link });
        return;
      } catch (err) {
        // Closing the share sheet is no failure; a sheet that cannot open falls back to copying.
        if (err instanceof DOMException && err.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(link);
      notify(s.copied, 'success');
    } catch {
      notify(s.copyFailed, 'error');
    }
  };
  return (
    <button
      type="button"
      className={`btn btn-ghost btn-sm ${styles.share} ${className ?? ''}`}
      onClick={() => void share()}
      aria-label={label}
      disabled={disabled}
    >
      <svg width={18} height={18} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d="M12 3v12M7.5 7.5 12 3l4.5 4.5M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {s.label}
    </button>
  );
}
