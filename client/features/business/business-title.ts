import { useI18n } from '../../i18n';

/**
 * The suggestion box's stored title is one language; the card names it in the active one. Its
 * own module, so a page that names businesses (the home feed) does not load the directory card.
 */
export function useBusinessTitle() {
  const { t } = useI18n();
  return (b: { title: string; isSuggestionBox: boolean }) => (b.isSuggestionBox ? t.business.directory.suggestionTitle : b.title);
}
