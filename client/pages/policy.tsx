import { LegalDocumentView } from '../content/legal-document';
import { policy } from '../content/policy';
import { useI18n } from '../i18n';

export default function PolicyPage() {
  const { lang } = useI18n();
  return <LegalDocumentView doc={policy[lang]} />;
}
