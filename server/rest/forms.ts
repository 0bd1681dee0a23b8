import { z } from 'zod';
import { AppError } from '../lib/errors';
import { fieldsFromIssues } from '../lib/validation';
import type { MultipartForm } from './images';

/**
 * A request body declared once: the zod fields a route reads from a multipart form (or a JSON
 * body) both check the request and write the operation's `requestBody` in the OpenAPI document
 * (openapi.ts reads the route's `config.form`). A field the form does not declare is a 400
 * naming it, unless the form says what becomes of other fields; a file is taken only in a field
 * declared with `formFile`. Values are checked with the same schemas the services parse with, so
 * the document's bounds (maxLength, patterns, enums) are the code's.
 */

/** The largest text field @fastify/multipart reads (app.ts `fieldSize`); a longer one is refused. */
export const FORM_FIELD_MAX = 100_000;

/** What a file part stands as among a form's values while they are checked. */
const FILE_PART = '\u0000file';
const fileSchemas = new WeakSet<z.ZodType>();

/** A file field: documented as binary; its bytes are in `form.files` (images.ts checks them). */
export function formFile(description: string) {
  const schema = z.literal(FILE_PART, { error: 'invalidInput' }).optional().describe(description);
  fileSchemas.add(schema);
  return schema;
}

const emptyAllowed = new WeakMap<z.ZodType, z.ZodType>();
/** A text field where an empty value is the same as none (the browsers' empty inputs). */
export function emptyOr<S extends z.ZodType>(schema: S) {
  const either = z.union([z.literal(''), schema]).optional();
  emptyAllowed.set(either, schema);
  return either;
}

/** A field the server reads and drops (legacy clients send it): any text. */
export const ignoredField = (description: string) => z.string().max(FORM_FIELD_MAX).optional().describe(description);

/** Whole stars as a form writes them: `4`; `0` or empty means none. */
export const starsField = (description: string) =>
  z
    .string()
    .regex(/^[0-5]?$/, 'emojiRateInvalid')
    .max(1, 'emojiRateInvalid')
    .optional()
    .describe(description);

type Others = 'refused' | 'ignored' | { pattern: RegExp; description: string };

export type FormBody = {
  shape: z.ZodRawShape;
  /** Documented as required; the service's own parse reports a missing one with its words. */
  required: string[];
  /** Fields the form does not name: refused (400), dropped unread, or taken when they match. */
  others: Others;
  /**
   * Fields whose values the route hands to a service schema (the same schema as here), which
   * reports them with all other fields' errors at once; checkForm checks only their presence.
   */
  parsedLater: string[];
  /** The same fields as a JSON body too (users' forms): the JSON document. */
  json?: z.ZodType;
};

export function formBody<Shape extends z.ZodRawShape>(
  shape: Shape,
  options: { required?: (keyof Shape & string)[]; others?: Others; parsedLater?: (keyof Shape & string)[]; json?: z.ZodType } = {},
): FormBody {
  return { shape, required: options.required ?? [], others: options.others ?? 'refused', parsedLater: options.parsedLater ?? [], json: options.json };
}

/** The names of a form's file fields, for withMultipartForm. */
export const fileFieldsOf = (body: FormBody) => Object.keys(body.shape).filter((name) => fileSchemas.has(body.shape[name] as z.ZodType));

/**
 * Checks a multipart form against its declaration: 400 naming each field that is not declared
 * (unless taken as `others`), each file outside a file field and each value its schema refuses
 * (but those `parsedLater`).
 * The caller goes on with `form` as it was: the services parse the values again.
 */
export function checkForm(body: FormBody, form: MultipartForm): void {
  const values: Record<string, string> = { ...form.fields };
  for (const name of Object.keys(form.files)) values[name] = FILE_PART;
  const errors: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const schema = body.shape[name] as z.ZodType | undefined;
    if (!schema) {
      const { others } = body;
      if (others === 'refused' || (others !== 'ignored' && !others.pattern.test(name))) errors[name] = 'invalidInput';
      continue;
    }
    if (value !== FILE_PART && body.parsedLater.includes(name)) continue;
    const inner = emptyAllowed.get(schema);
    if (inner && value === '') continue;
    const parsed = (inner ?? schema).safeParse(value);
    if (!parsed.success) errors[name] = fieldsFromIssues(parsed.error.issues.map((i) => ({ ...i, path: [name, ...i.path] })))?.[name] ?? 'invalidInput';
  }
  if (Object.keys(errors).length > 0) throw new AppError('BAD_INPUT', 'invalidInput', errors);
}

type JsonSchema = Record<string, unknown>;

/** The JSON Schema (OpenAPI 3.0) of a zod schema as a request writes it. */
export function requestSchemaOf(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, {
    io: 'input',
    target: 'openapi-3.0',
    override: (ctx) => {
      if (!fileSchemas.has(ctx.zodSchema as unknown as z.ZodType)) return;
      const description = ctx.jsonSchema.description;
      for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as JsonSchema)[key];
      Object.assign(ctx.jsonSchema, { type: 'string', format: 'binary', ...(description ? { description } : {}) });
    },
  }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** The multipart form's JSON Schema: its fields, the required ones, and what other fields may be. */
export function formSchemaOf(body: FormBody): JsonSchema {
  const schema = requestSchemaOf(z.object(body.shape));
  delete schema.required;
  if (body.required.length > 0) schema.required = body.required;
  const { others } = body;
  schema.additionalProperties =
    others === 'refused'
      ? false
      : { type: 'string', maxLength: FORM_FIELD_MAX, description: others === 'ignored' ? 'Any other field is ignored.' : others.description };
  return schema;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's form: checked by the route (checkForm), written into the document (openapi.ts). */
    form?: FormBody;
  }
}
