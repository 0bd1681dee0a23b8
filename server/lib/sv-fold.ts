/**
 * Text folded for comparing: composed form, lower case by Swedish rules ('ÅHLÉNS' → 'åhléns'),
 * so text typed with combining accents matches text typed without.
 */
export const svFold = (text: string): string => text.normalize('NFC').toLocaleLowerCase('sv-SE');
