/**
 * User text is checked for length after its invisible format characters (Unicode category Cf:
 * zero-width spaces, bidirectional overrides, soft hyphens, tag characters ...) are removed,
 * so a comment or a name made of nothing visible is refused as empty, and no override can
 * turn the text around it.
 *
 * Kept: a zero-width joiner or non-joiner (U+200D, U+200C) standing directly between two
 * visible characters (letters, marks, digits, pictographs, skin tones). There they are part of
 * what the user wrote: the joiner makes one emoji of 👨‍👩‍👧 or 🏳️‍🌈, the non-joiner spells
 * Persian (می‌خواهم) and several Indic scripts correctly. Such a joiner cannot stand alone or
 * at an edge, so it can neither make an invisible text nor carry hidden data on its own.
 * Emoji tag sequences (the flags of England, Scotland, Wales) lose their tags and show as 🏴:
 * tag characters are the usual way to hide text in plain sight, so none are kept.
 */
const VISIBLE = String.raw`[\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Emoji_Modifier}]`;
const INVISIBLE = new RegExp(`(?<!${VISIBLE})[\\u200C\\u200D]|[\\u200C\\u200D](?!${VISIBLE})|[^\\P{Cf}\\u200C\\u200D]`, 'gu');

/**
 * Characters that are not format characters but draw nothing (or only a placeholder) either,
 * found by review and by the attack of issue 27: Hangul fillers, the blank Braille pattern, the
 * combining grapheme joiner, the object replacement character (U+FFFC, which stands for an
 * embedded object that is not there), Khmer's invisible inherent vowels, the Mongolian vowel
 * separator, the null notehead; control characters other than tab and line breaks; private-use
 * characters (no font of ours draws them), noncharacters and lone surrogates.
 */
const BLANKS = /[\u115F\u1160\u3164\uFFA0\u2800\uFFFC\u180E\u{1D159}]|\u034F|\u17B4|\u17B5|[^\P{Cc}\t\n\r]|\p{Co}|\p{Noncharacter_Code_Point}|\p{Cs}/gu;
/** Marks (accents, variation selectors) with nothing to sit on: at the start or after a space. */
const STRAY_MARKS = /(?<=^|\s)\p{M}+/gu;

/** The text without its invisible characters (see above); use before trim and length checks. */
export const withoutInvisible = (text: string) => text.replace(INVISIBLE, '').replace(BLANKS, '').replace(STRAY_MARKS, '');

/** How much of a comment its page's title quotes. */
export const COMMENT_TITLE_EXCERPT = 60;

/** The text on one line, cut at a word before `max` characters (whole code points) with an ellipsis. */
export function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  if (chars.length <= max) return flat;
  const cut = chars.slice(0, max - 1).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${(atWord.length > max / 2 ? atWord : cut).replace(/[\s,.;:–-]+$/, '')}…`;
}
