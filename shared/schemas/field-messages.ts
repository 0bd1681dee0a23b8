import { z } from 'zod';
import type { commonMessages } from './common-messages';

type FieldMessageKey = Extract<keyof typeof commonMessages, `value${string}` | 'required'>;

/**
 * The product's message key for a zod issue that has no message of its own: a missing field
 * is `required`, a bound broken says which way, anything else `valueInvalid`. Zod's default
 * English ("Too small: expected number to be >=1") never reaches a reply or a form; REST sends
 * the key's English text and the client shows the key in its language.
 */
export function fieldMessageKey(issue: { code?: string; input?: unknown; origin?: string; expected?: string }): FieldMessageKey {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'required';
      return issue.expected === 'int' ? 'valueNotWhole' : 'valueWrongType';
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set' ? 'valueTooShort' : 'valueTooSmall';
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set' ? 'valueTooLong' : 'valueTooLarge';
    case 'not_multiple_of':
      return 'valueNotWhole';
    case 'invalid_value':
      return 'valueNotAllowed';
    case 'unrecognized_keys':
      return 'valueUnknownField';
    default:
      return 'valueInvalid';
  }
}

// Every schema, the server's and the client's forms alike, says the product's words by default.
z.config({ customError: (issue) => fieldMessageKey(issue) });
