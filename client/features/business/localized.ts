import { useI18n } from '../../i18n';

/** The one place name the site itself writes (the suggestion box's branch), named in the active language. */
const ALL_OF_SWEDEN = 'Hela Sverige';

/**
 * A business's texts in the active language: the category's English name, the English
 * description where there is one (else the Swedish; `lang` says which one is shown, for the
 * element's lang attribute), and the site's own place name.
 */
export function useLocalized() {
  const { lang, t } = useI18n();
  const english = lang === 'en';
  return {
    category: (b: { category: string; categoryEn: string }) => (english && b.categoryEn ? b.categoryEn : b.category),
    description: (b: { description: string; descriptionEn: string | null }) =>
      english && b.descriptionEn ? { text: b.descriptionEn, lang: 'en' as const } : { text: b.description, lang: 'sv' as const },
    excerpt: (c: { excerpt: string; excerptCut: boolean; excerptEn: string | null; excerptEnCut: boolean }) =>
      english && c.excerptEn ? { text: c.excerptEn, cut: c.excerptEnCut, lang: 'en' as const } : { text: c.excerpt, cut: c.excerptCut, lang: 'sv' as const },
    place: (location: string) => (location === ALL_OF_SWEDEN ? t.business.detail.allOfSweden : location),
  };
}
