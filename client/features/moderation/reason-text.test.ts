import { describe, expect, it } from 'vitest';
import { authorReasonOf } from '../../../shared/schemas/moderation';
import { en } from '../../../shared/i18n/en';
import { sv } from '../../../shared/i18n/sv';
import { reasonText } from './reason-text';

const svReasons = sv.moderation.report.reasons;
const enReasons = en.moderation.report.reasons;

describe('reasonText', () => {
  it('translates one reason, or the reports’ reasons joined', () => {
    expect(reasonText('spam', svReasons)).toBe(svReasons.spam);
    expect(reasonText('spam, offensive', svReasons)).toBe(`${svReasons.spam}, ${svReasons.offensive}`);
    expect(reasonText('spam, offensive', enReasons)).toBe(`${enReasons.spam}, ${enReasons.offensive}`);
  });

  it('translates every key before the moderator’s words and the log’s note, and keeps those as written', () => {
    const withText = authorReasonOf('spam, offensive', 'Länkar till en annan butik, sa Bo');
    expect(reasonText(withText, svReasons)).toBe(`${svReasons.spam}, ${svReasons.offensive}: Länkar till en annan butik, sa Bo`);
    expect(reasonText('spam, offensive — second report today', svReasons)).toBe(`${svReasons.spam}, ${svReasons.offensive} — second report today`);
    expect(reasonText(`${authorReasonOf('fake', 'Never a customer')} — checked, offensive`, enReasons)).toBe(
      `${enReasons.fake}: Never a customer — checked, offensive`,
    );
  });

  it('leaves free text from before reason keys alone, even where a word is a key', () => {
    expect(reasonText('Hello, spam', svReasons)).toBe('Hello, spam');
    expect(reasonText('spam, eggs: and ham', svReasons)).toBe('spam, eggs: and ham');
    expect(reasonText('toString', svReasons)).toBe('toString');
  });
});
