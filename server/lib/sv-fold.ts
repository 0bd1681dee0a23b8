/**
 * Text folded for comparing: composed form, lower case by Swedish rules ('ÅHLÉNS' → 'åhléns'),
 * so text typed with combining accents matches text typed without.
 */
export const svFold = (text: string): string => text.normalize('NFC').toLocaleLowerCase('sv-SE');

/**
 * Text folded for the directory search (issue 31.4): svFold, then without accents, so é, ü and
 * also å, ä, ö compare as e, u, a, a, o ('ÅHLÉNS' → 'ahlens', 'Hemköp' → 'hemkop'); letters with
 * no decomposition get their usual Latin spelling; runs of white space become one space. The
 * stored search rows and the typed words are folded by this one function, so 'åhléns' and
 * 'ahlens' both find ÅHLÉNS.
 */
export const searchFold = (text: string): string =>
  svFold(text)
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[øœæß]/g, (c) => ({ ø: 'o', œ: 'oe', æ: 'ae', ß: 'ss' })[c] ?? c)
    .replace(/\s+/g, ' ')
    .trim();
