import { LegalDocumentView } from '../content/legal-document';
import { terms } from '../content/terms';
import { useI18n } from '../i18n';

export default function TermsPage() {
  const { lang } = useI18n();
  return <LegalDocumentView doc={terms[lang]} />;
}
