import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngBytes } from '../test/comment-fixtures';
import { bearer, createTestApp, createTestUser, pngForm, type TestContext, type TestUser } from '../test/helpers';

/**
 * Issue 28, item 1: the document's request bodies and the routes agree both ways. For every
 * multipart operation of the document, a request using each documented field (with a value the
 * document allows) is not refused, and a field the document does not list is refused (or, where
 * the document says other fields are ignored, taken). Together with the reply check every
 * integration test runs (test/openapi-replies.ts: the server took a field or value the document
 * refuses), a form field cannot be in one and not the other.
 */

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; additionalProperties?: unknown; format?: string };
type Doc = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>> };

let t: TestContext;
let doc: Doc;
let admin: TestUser;
let author: TestUser;
let other: TestUser;
let target: TestUser;
const ids: Record<string, string> = {};
let n = 0;
const unique = () => `${Date.now().toString(36)}${(n += 1)}`;

type Case = {
  user: TestUser | null;
  /** Who sends a field when not `user` (an admin's flags). */
  userFor?: (field: string) => TestUser;
  url: string;
  method: 'POST' | 'PUT';
  base: () => Record<string, string>;
  files?: string[];
};

async function injectForm(user: TestUser | null, method: 'POST' | 'PUT', url: string, fields: Record<string, string>, files: Record<string, Buffer> = {}) {
  const form = await pngForm(fields, files);
  return t.app.inject({ method, url, headers: { ...(user ? bearer(user) : {}), ...form.headers }, payload: form.payload });
}

async function upload(kind: string, user: TestUser) {
  const res = await injectForm(user, 'POST', '/api/images', { kind }, { image: await pngBytes() });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  doc = (await t.app.inject('/api/docs')).json();
  [admin, author, other, target] = await Promise.all([
    createTestUser(t.db, { isAdmin: true }),
    createTestUser(t.db),
    createTestUser(t.db),
    createTestUser(t.db),
  ]);
  const business = await injectForm(admin, 'POST', '/api/business/upload', {
    title: `Butik ${unique()}`,
    category: 'Livsmedel',
    description: 'En butik i stan.',
    'branches[0][location]': 'Lund',
  });
  expect(business.statusCode).toBe(201);
  const created = business.json<{ _id: string; branches: { _id: string }[] }>();
  ids.business = created._id;
  ids.branchId = created.branches[0]._id;
  const comment = await injectForm(author, 'POST', `/api/comment/create/${ids.business}`, { text: 'Ett första omdöme.', businessLocation: 'Lund' });
  expect(comment.statusCode).toBe(201);
  ids.comment = comment.json<{ _id: string }>()._id;
  const reply = await injectForm(author, 'POST', `/api/comment/addSubComment/${ids.comment}`, { text: 'Ett första svar.' });
  expect(reply.statusCode).toBe(201);
  ids.reply = reply.json<{ _id: string }>()._id;
});
afterAll(() => t.close());

/** The documented operations with a multipart body, and how to send each a valid request. */
const cases = (): Record<string, Case> => ({
  'POST /api/users/register': {
    user: null,
    method: 'POST',
    url: '/api/users/register',
    base: () => ({ firstName: 'Kim', lastName: 'Berg', email: `kim-${unique()}@example.se`, password: 'Secret-pass-123', confirmPassword: 'Secret-pass-123' }),
  },
  'PUT /api/users/update/{id}': {
    user: target,
    userFor: (field) => (['isBanned', 'banReason', 'isAdmin', 'isModerator'].includes(field) ? admin : target),
    method: 'PUT',
    url: `/api/users/update/${target.id}`,
    base: () => ({}),
  },
  'POST /api/business/upload': {
    user: admin,
    method: 'POST',
    url: '/api/business/upload',
    base: () => ({ title: `Butik ${unique()}`, category: 'Livsmedel', description: 'En butik i stan.', 'branches[0][location]': 'Lund' }),
  },
  'PUT /api/business/{id}': {
    user: admin,
    method: 'PUT',
    url: `/api/business/${ids.business}`,
    base: () => ({ description: 'En butik i stan.', 'branches[0][location]': 'Lund', 'branches[0][_id]': ids.branchId }),
  },
  'POST /api/comment/create/{businessId}': {
    user: other,
    method: 'POST',
    url: `/api/comment/create/${ids.business}`,
    base: () => ({ text: `Ett omdöme ${unique()}.`, businessLocation: 'Lund' }),
  },
  'PUT /api/comment/update/{id}': { user: author, method: 'PUT', url: `/api/comment/update/${ids.comment}`, base: () => ({ text: `Ändrat ${unique()}.` }) },
  'POST /api/comment/addSubComment/{commentId}': {
    user: other,
    method: 'POST',
    url: `/api/comment/addSubComment/${ids.comment}`,
    base: () => ({ text: `Ett svar ${unique()}.` }),
  },
  'PUT /api/subComment/update/{id}': { user: author, method: 'PUT', url: `/api/subComment/update/${ids.reply}`, base: () => ({ text: `Ändrat ${unique()}.` }) },
  'POST /api/images': { user: author, method: 'POST', url: '/api/images', base: () => ({}), files: ['image'] },
});

/** Values tried in turn for a documented text field: the first one its schema allows is sent. */
const candidates = ['4', 'false', 'true', 'sv', 'full', 'comment', 'Lund', 'Hej hej, en text.', '[{"location":"Lund"}]', 'Secret-pass-123', ''];

const ajv = new Ajv({ strict: false });
/** A value of the field the document allows; ids of the data set for the fields that name one. */
async function sampleOf(name: string, schema: Schema, op: string): Promise<string> {
  if (name === 'branchId') return ids.branchId;
  if (name === 'imageId')
    return upload(op.includes('business') ? 'business' : op.includes('users') ? 'avatar' : 'comment', op.includes('business') ? admin : target);
  if (name === 'iconId') return upload('icon', admin);
  const validate = ajv.compile(schema);
  const value = candidates.find((c) => validate(c));
  if (value === undefined) throw new Error(`${op}: no candidate value fits ${name}: ${JSON.stringify(schema)}`);
  return value;
}

async function send(c: Case, fields: Record<string, string>, files: string[], field?: string) {
  const png = await pngBytes();
  const user = field && c.userFor ? c.userFor(field) : c.user;
  return injectForm(user, c.method, c.url, fields, Object.fromEntries(files.map((f) => [f, png])));
}

const formOf = (op: string) => {
  const [method, path] = op.split(' ');
  return doc.paths[path]?.[method.toLowerCase()]?.requestBody?.content['multipart/form-data']?.schema;
};

describe('request bodies of the document and the routes', () => {
  it('has a case for every multipart operation of the document, and no other', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.requestBody?.content['multipart/form-data'])
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(Object.keys(cases()).sort());
  });

  it('takes a request using each documented field', async () => {
    const refused: string[] = [];
    for (const [op, c] of Object.entries(cases())) {
      const form = formOf(op)!;
      const base = await send(c, c.base(), c.files ?? []);
      expect(base.statusCode, `${op} base: ${base.body}`).toBeLessThan(300);
      for (const [name, schema] of Object.entries(form.properties ?? {})) {
        const fields = c.base();
        let files = c.files ?? [];
        if (schema.format === 'binary') files = name === 'file' ? [...files.filter((f) => f !== 'image'), name] : [...new Set([...files, name])];
        else if (!(name in fields)) fields[name] = await sampleOf(name, schema, op);
        else continue;
        const res = await send(c, fields, files, name);
        if (res.statusCode >= 400) refused.push(`${op} ${name}=${fields[name] ?? 'a file'}: ${res.statusCode} ${res.body}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('takes a JSON body using each documented property, where the operation takes JSON too', async () => {
    const refused: string[] = [];
    let operations = 0;
    for (const [op, c] of Object.entries(cases())) {
      const [method, path] = op.split(' ');
      const json = doc.paths[path][method.toLowerCase()].requestBody?.content['application/json']?.schema;
      if (!json) continue;
      operations += 1;
      for (const [name, schema] of Object.entries(json.properties ?? {})) {
        const body: Record<string, string> = c.base();
        if (name in body) continue;
        body[name] = await sampleOf(name, schema, op);
        const user = c.userFor ? c.userFor(name) : c.user;
        const res = await t.app.inject({ method: c.method, url: c.url, headers: user ? bearer(user) : {}, payload: body });
        if (res.statusCode >= 400) refused.push(`${op} ${name}=${body[name]}: ${res.statusCode} ${res.body}`);
      }
    }
    // Registration and the profile update take JSON as well as multipart.
    expect(operations).toBe(2);
    expect(refused).toEqual([]);
  });

  it('refuses a field the document does not list, unless it says other fields are ignored', async () => {
    for (const [op, c] of Object.entries(cases())) {
      const form = formOf(op)!;
      const res = await send(c, { ...c.base(), notDocumented: 'x' }, c.files ?? []);
      const others = form.additionalProperties as false | { description?: string };
      if (others !== false && others.description === 'Any other field is ignored.') expect(res.statusCode, op).toBeLessThan(300);
      else {
        expect(res.statusCode, op).toBe(400);
        expect(res.json<{ errors: Record<string, string> }>().errors, op).toHaveProperty('notDocumented');
      }
    }
  });
});
