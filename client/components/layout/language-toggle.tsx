import { useI18n } from '../../i18n';

/** Shows the code of the language it switches to ('EN' while Swedish, 'SE' while English). */
export function LanguageToggle({ className }: { className?: string }) {
  const { lang, setLang, t } = useI18n();
  const nav = t.common.nav;
  return (
    <button
      type="button"
      className={className}
      onClick={() => setLang(lang === 'sv' ? 'en' : 'sv')}
      aria-label={`${nav.otherLanguageCode} – ${nav.switchLanguage}`}
    >
      {nav.otherLanguageCode}
    </button>
  );
}
