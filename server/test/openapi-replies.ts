import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { isMessageKey, messages } from '../../shared/schemas/messages';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/**
 * Checks REST replies against the OpenAPI document the app serves, so code and document cannot
 * drift: the status must be one the operation lists, a JSON body must match that status's
 * schema, a reply without a documented body must have none, and the headers a client reads
 * (X-Next-Cursor, Retry-After, Location, ETag, Allow) must be documented for that reply. A JSON
 * request body the server took (2xx) must match the operation's documented body, so the
 * document never refuses what the server accepts.
 * `createTestApp` runs it on every reply of `app.inject`, so every test of the integration
 * suite is also a test of the document.
 */

type Response = { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: object }> };
type Operation = { requestBody?: { content: Record<string, { schema: object }> }; responses: Record<string, Response> };
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, object> } };
export type ApiReply = {
  method: string;
  url: string;
  status: number;
  headers: Record<string, unknown>;
  body: Buffer;
  requestJson?: unknown;
  /** A multipart request's parts: a text field's value, or FILE for a file. */
  requestForm?: Record<string, string>;
};

/** What a file part of a multipart request stands as in `requestForm`. */
export const FILE = '\u0000file';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const CHECKED_HEADERS = ['x-next-cursor', 'retry-after', 'location', 'etag', 'allow'];

type Template = { method: string; path: string; pattern: RegExp; literals: number; op: Operation };

export function createReplyChecker(doc: OpenApiDocument) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  // The document's components under one id, so `#/components/...` refs resolve from any schema.
  const rebase = (schema: object) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as object;
  ajv.addSchema(rebase({ components: doc.components ?? {} }), 'openapi');
  const validators = new Map<object, ValidateFunction>();
  const validatorOf = (schema: object) => {
    let validate = validators.get(schema);
    if (!validate) {
      validate = ajv.compile(rebase(schema));
      validators.set(schema, validate);
    }
    return validate;
  };

  const templates: Template[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const segments = path.split('/');
    const pattern = new RegExp(`^${segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}/?$`);
    const literals = segments.filter((s) => !/^\{.+\}$/.test(s)).length;
    for (const [method, op] of Object.entries(item)) templates.push({ method: method.toUpperCase(), path, pattern, literals, op });
  }

  /** The operation a request reached: the matching template with the most literal segments. */
  function operationOf(method: string, url: string): Template | undefined {
    const path = url.split('?')[0];
    const candidates = templates.filter((t) => t.pattern.test(path));
    // A path answered with a method it lacks is a 405 (plugins/methods.ts), not an operation.
    const best = candidates.sort((a, b) => b.literals - a.literals)[0];
    if (!best) return undefined;
    return candidates.find((t) => t.method === method && t.literals === best.literals);
  }

  /** What is wrong with a reply, in words; empty when it matches the document. */
  return function violations(reply: ApiReply): string[] {
    const isHead = reply.method === 'HEAD';
    const found = operationOf(isHead ? 'GET' : reply.method, reply.url);
    if (!found) return [];
    const where = `${reply.method} ${reply.url} (${found.method} ${found.path}) ${reply.status}`;
    const documented = found.op.responses[String(reply.status)] ?? found.op.responses.default;
    if (!documented) return [`${where}: the document lists no ${reply.status} for this operation`];
    const problems: string[] = [];
    const requestSchema = found.op.requestBody?.content['application/json']?.schema;
    if (reply.requestJson !== undefined && requestSchema && reply.status < 300) {
      const validate = validatorOf(requestSchema);
      if (!validate(reply.requestJson)) {
        for (const e of validate.errors ?? []) problems.push(`${where}: the server took a request body the document refuses: ${e.instancePath} ${e.message}`);
      }
    }
    const formSchema = found.op.requestBody?.content['multipart/form-data']?.schema;
    if (reply.requestForm !== undefined && reply.status < 300) {
      if (!formSchema) problems.push(`${where}: the server took a multipart body the document does not describe`);
      else {
        const validate = validatorOf(formSchema);
        // A file part is checked only for its name: its bytes are the server's to judge.
        const fields = Object.fromEntries(Object.entries(reply.requestForm).map(([name, value]) => [name, value === FILE ? undefined : value]));
        const { properties = {}, additionalProperties } = formSchema as { properties?: Record<string, { format?: string }>; additionalProperties?: unknown };
        for (const [name, value] of Object.entries(reply.requestForm)) {
          const property = properties[name];
          if (!property && !additionalProperties) problems.push(`${where}: the server took a field ${name} the document does not list`);
          else if (value === FILE && property && property.format !== 'binary')
            problems.push(`${where}: the server took a file in ${name}, which the document does not list as a file`);
        }
        if (!validate(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v ?? ''])))) {
          for (const e of validate.errors ?? []) {
            // A file's stand-in '' says nothing about a binary property.
            const name = e.instancePath.slice(1);
            if (name && reply.requestForm[name] === FILE) continue;
            problems.push(`${where}: the server took a form the document refuses: ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
          }
        }
      }
    }
    for (const name of CHECKED_HEADERS) {
      if (reply.headers[name] === undefined) continue;
      const declared = Object.keys(documented.headers ?? {}).some((h) => h.toLowerCase() === name);
      if (!declared) problems.push(`${where}: header ${name} is not documented`);
    }
    if (isHead) return problems;
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) {
      if (reply.body.length > 0) problems.push(`${where}: a body where the document has none`);
      return problems;
    }
    let value: unknown;
    try {
      value = JSON.parse(decoded(reply).toString('utf8'));
    } catch {
      return [...problems, `${where}: the body is not JSON`];
    }
    const validate = validatorOf(schema);
    if (!validate(value)) {
      for (const e of validate.errors ?? []) problems.push(`${where}: body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
    }
    if (reply.status >= 400) problems.push(...wordProblems(where, value));
    return problems;
  };
}

const productTexts = new Set<string>(Object.values(messages));

/**
 * An error says the product's own words, as the document promises: `message` is the English
 * text of its `key`, and every field's message is one of ours, never a library's.
 */
function wordProblems(where: string, value: unknown): string[] {
  if (typeof value !== 'object' || value === null || !('key' in value)) return [];
  const body = value as { key: unknown; message: unknown; errors?: Record<string, unknown> };
  const problems: string[] = [];
  if (typeof body.key !== 'string' || !isMessageKey(body.key) || messages[body.key] !== body.message) {
    problems.push(`${where}: message ${JSON.stringify(body.message)} is not the text of key ${JSON.stringify(body.key)}`);
  }
  for (const [field, text] of Object.entries(body.errors ?? {})) {
    if (typeof text !== 'string' || !productTexts.has(text)) problems.push(`${where}: field ${field} says ${JSON.stringify(text)}, not a message of ours`);
  }
  return problems;
}

/** A multipart request's parts by name (a repeated name keeps its last), files as FILE. */
function formPartsOf(request: InjectOptions | { method: string; url: string }): Record<string, string> | undefined {
  if (!('payload' in request) || request.payload === undefined) return undefined;
  const contentType = (request.headers as Record<string, unknown> | undefined)?.['content-type'];
  const boundary = typeof contentType === 'string' ? /^multipart\/form-data;.*boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType) : null;
  const { payload } = request;
  if (!boundary || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return undefined;
  const text = Buffer.isBuffer(payload) ? payload.toString('latin1') : payload;
  const parts: Record<string, string> = {};
  for (const chunk of text.split(`--${boundary[1] ?? boundary[2]}`)) {
    const end = chunk.indexOf('\r\n\r\n');
    if (end === -1) continue;
    const head = chunk.slice(0, end);
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) continue;
    const value = chunk.slice(end + 4).replace(/\r\n$/, '');
    parts[name] = /filename=/i.test(head) ? FILE : Buffer.from(value, 'latin1').toString('utf8');
  }
  return parts;
}

/** The request's body when it was sent as JSON (an object payload, or a string declared JSON). */
function jsonPayloadOf(request: InjectOptions | { method: string; url: string }): unknown {
  if (!('payload' in request) || request.payload === undefined) return undefined;
  const { payload, headers } = request;
  const contentType = (headers as Record<string, unknown> | undefined)?.['content-type'];
  const type = typeof contentType === 'string' ? contentType : '';
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
    if (!type.startsWith('application/json')) return undefined;
    try {
      return JSON.parse(payload.toString());
    } catch {
      return undefined;
    }
  }
  if (typeof (payload as { pipe?: unknown }).pipe === 'function') return undefined;
  return type === '' || type.startsWith('application/json') ? payload : undefined;
}

function decoded(reply: ApiReply): Buffer {
  switch (reply.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(reply.body);
    case 'gzip':
      return gunzipSync(reply.body);
    case 'deflate':
      return inflateSync(reply.body);
    default:
      return reply.body;
  }
}

/**
 * Makes `app.inject` check every /api reply against the app's own document; a mismatch throws
 * from the inject call, failing the test that made the request.
 */
export function checkRepliesOf(app: FastifyInstance) {
  let check: ReturnType<typeof createReplyChecker> | undefined;
  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const checked = async (options: InjectOptions | string) => {
    const res = await inject(options);
    const request = typeof options === 'string' ? { method: 'GET', url: options } : options;
    const url = typeof request.url === 'string' ? request.url : ((request.path as string | undefined) ?? '');
    if (!url.startsWith('/api/') || url.startsWith('/api/docs')) return res;
    check ??= createReplyChecker(app.swagger() as unknown as OpenApiDocument);
    const problems = check({
      method: (request.method ?? 'GET').toUpperCase(),
      url,
      status: res.statusCode,
      headers: res.headers,
      body: res.rawPayload,
      requestJson: jsonPayloadOf(request),
      requestForm: formPartsOf(request),
    });
    if (problems.length > 0) throw new Error(`Reply does not match the OpenAPI document:\n${problems.join('\n')}`);
    return res;
  };
  // The chained form (`app.inject().get(…)`) is left as it is; the suite passes options.
  const chain = app.inject.bind(app) as () => unknown;
  app.inject = ((...args: [InjectOptions | string] | []) => (args.length === 0 ? chain() : checked(args[0]))) as typeof app.inject;
}
