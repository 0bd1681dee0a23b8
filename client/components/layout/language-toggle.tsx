import { loadCatalog, useI18n } from '../../i18n';
import { useHydrated } from '../../lib/hydrated';

/** Shows the code of the language it switches to ('EN' while Swedish, 'SV', the ISO code, while English; the seed's `se` stays the API value). */
export function LanguageToggle({ className }: { className?: string }) {
  const { lang, setLang, t } = useI18n();
  const nav = t.common.nav;
  const other = lang === 'sv' ? 'en' : 'sv';
  // Inert until the app has taken over a served page (lib/hydrated.ts): a press before would be lost.
  const hydrated = useHydrated();
  // Starts fetching the other catalog at the first sign of intent, so the switch feels instant.
  const warm = () => void loadCatalog(other).catch(() => {});
  return (
    <button
      type="button"
      className={className}
      onPointerEnter={warm}
      onFocus={warm}
      onClick={() => setLang(other)}
      disabled={!hydrated}
      aria-label={`${nav.otherLanguageCode} – ${nav.switchLanguage}`}
    >
      {nav.otherLanguageCode}
    </button>
  );
}
