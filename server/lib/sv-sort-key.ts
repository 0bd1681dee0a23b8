/**
 * A title's key for sorting A–Ö by plain binary comparison, as SQLite's default collation does:
 * the order of `new Intl.Collator('sv', { sensitivity: 'base', numeric: true })` for the titles a
 * directory holds. SQLite cannot call that collator, so the key is computed here and stored
 * (businesses.title_sort, indexed). Lower case; accents dropped except that Å, Ä, Ö come after
 * Z in that order (Æ as Ä, Ø as Ö, Ü as Y, as Swedish sorts them); a run of digits compares by
 * its value; spaces before punctuation before digits before letters.
 */
export function swedishSortKey(title: string): string {
  let key = '';
  const folded = title.normalize('NFC').toLocaleLowerCase('sv-SE');
  for (const match of folded.matchAll(/(\d+)|(\s+)|(.)/gsu)) {
    const [, digits, space, char] = match;
    if (digits !== undefined) key += numberKey(digits);
    else if (space !== undefined) key += '\u0001';
    else key += letterKey(char);
  }
  return key;
}

// Ten places keep runs up to 9,999,999,999 in value order; a longer one still sorts after them.
const numberKey = (digits: string) => digits.replace(/^0+(?=\d)/, '').padStart(10, '0');

const SWEDISH_LAST: Record<string, string> = { å: '{', ä: '|', æ: '|', ö: '}', ø: '}', ü: 'y' };

function letterKey(char: string): string {
  const last = SWEDISH_LAST[char];
  if (last) return last;
  if (/[a-z]/.test(char)) return char;
  const base = char.normalize('NFD').replace(/\p{M}+/gu, '');
  if (/^[a-z]$/.test(base)) return base;
  // Punctuation and symbols sort before digits and letters; other scripts after Ö, by code point.
  if (/[\p{P}\p{S}]/u.test(char)) return `\u0002${char}`;
  return char;
}
