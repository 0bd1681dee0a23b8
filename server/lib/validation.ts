import type { z } from 'zod';
import { AppError } from './errors';

/**
 * Turns a zod issue list into { field: message } for error replies; undefined when no issue
 * names a field. An issue about the input as a whole (a body that is empty, an array, a string)
 * names none and carries zod's own English: the reply's invalidInput message says it instead.
 */
export function fieldsFromIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>) {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.path.length === 0) continue;
    fields[issue.path.map(String).join('.')] ??= issue.message;
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
