import type { z } from 'zod';
import { AppError } from './errors';
import { isMessageKey } from '../../shared/schemas/messages';
import { fieldMessageKey } from '../../shared/schemas/field-messages';

type Issue = { path: ReadonlyArray<PropertyKey>; message: string; code?: string; origin?: string; expected?: string };

/**
 * Turns a zod issue list into { field: message key } for error replies; undefined when no issue
 * names a field. An issue about the input as a whole (a body that is empty, an array, a string)
 * names none: the reply's invalidInput message says it instead. A message that is no key of
 * ours (a library's English) becomes the product's key for its kind of issue.
 */
export function fieldsFromIssues(issues: ReadonlyArray<Issue>) {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.path.length === 0) continue;
    fields[issue.path.map(String).join('.')] ??= isMessageKey(issue.message) ? issue.message : fieldMessageKey(issue);
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/**
 * The one validation step for input a door cannot check by itself (multipart forms, fields a
 * service reads again): the parsed value, or a 400 (BAD_INPUT, invalidInput) with the fields'
 * messages. `alsoInvalid` names fields to report as invalid whenever the input fails.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, alsoInvalid?: Record<string, string>): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const fields = fieldsFromIssues(parsed.error.issues);
  throw new AppError('BAD_INPUT', 'invalidInput', alsoInvalid ? { ...fields, ...alsoInvalid } : fields);
}
