import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCATION_MAX } from '../../shared/schemas/comment-constants';
import { createTestApp, createTestUser, type TestContext } from '../test/helpers';
import { createReplyChecker, FILE, type OpenApiDocument } from '../test/openapi-replies';

type Operation = {
  operationId?: string;
  tags?: string[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, { type?: string; format?: string }> } }> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: Record<string, unknown> }> }>;
};
type Doc = {
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

let t: TestContext;
let doc: Doc;
const operations = () => Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
const op = (method: string, path: string) => doc.paths[path][method];

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject('/api/docs')).json();
});
afterAll(() => t.close());

describe('the OpenAPI document', () => {
  it("has no error or warning from Spectral's spectral:oas ruleset", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const results = await spectral.run(new Document(JSON.stringify(doc), Json));
    const found = results.map((r) => `${['error', 'warn', 'info', 'hint'][r.severity]} ${r.code} ${r.path.join('.')}: ${r.message}`);
    expect(found).toEqual([]);
  });

  it('names every operation once and declares its tags and the servers', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const declared = new Set(doc.tags?.map((tag) => tag.name));
    for (const { op } of operations()) for (const tag of op.tags ?? []) expect(declared.has(tag), tag).toBe(true);
    expect(doc.tags?.every((tag) => tag.description)).toBe(true);
    expect(doc.servers).toEqual([{ url: 'http://localhost:8000', description: 'This site' }]);
    expect(doc.info.description).toMatch(/CORS: same-origin only/);
    // A signed-in operation takes the bearer token or the session cookie.
    expect((op('get', '/api/users/auth/check') as unknown as { security: unknown }).security).toEqual([{ bearer: [] }, { session: [] }]);
  });

  it('describes the body of the nine multipart operations, files as binary', () => {
    const multipartOperations = operations().filter(({ op }) => op.requestBody?.content['multipart/form-data']);
    expect(multipartOperations).toHaveLength(9);
    for (const { method, path } of multipartOperations) {
      const key = `${method} ${path}`;
      const form = op(method, path).requestBody?.content['multipart/form-data']?.schema;
      expect(form, key).toBeDefined();
      const files = Object.entries(form!.properties ?? {}).filter(([, p]) => p.format === 'binary');
      expect(files.length, key).toBeGreaterThan(0);
      expect(files.every(([, p]) => p.type === 'string')).toBe(true);
    }
    expect(Object.keys(op('post', '/api/comment/create/{businessId}').requestBody!.content['multipart/form-data'].schema.properties!)).toEqual(
      expect.arrayContaining(['text', 'businessLocation', 'rate', 'image']),
    );
    expect(Object.keys(op('post', '/api/users/register').requestBody!.content)).toEqual(['multipart/form-data', 'application/json']);
  });

  it('has one error schema, used by every error reply', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(['Error']);
    for (const { path, method, op } of operations()) {
      for (const [status, reply] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        expect(reply.content?.['application/json'].schema, `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
  });

  it('lists the statuses the server answers beyond each route', () => {
    for (const { path, method, op } of operations()) {
      const statuses = Object.keys(op.responses);
      const where = `${method} ${path}`;
      if (op.parameters?.some((p) => p.in === 'path')) expect(statuses, where).toContain('400');
      if (method !== 'get') expect(statuses, where).toEqual(expect.arrayContaining(['400', '403', '413', '415', '429']));
      if (op.parameters?.some((p) => p.in === 'query' && p.name === 'cursor')) expect(op.responses[200].headers, where).toHaveProperty('X-Next-Cursor');
      for (const status of ['429', '503']) if (op.responses[status]) expect(op.responses[status].headers, where).toHaveProperty('Retry-After');
    }
    for (const path of ['/api/business', '/api/business/{id}', '/api/comment', '/api/comment/{id}', '/api/subComment']) {
      expect(op('get', path).responses).toHaveProperty('304');
      expect(op('get', path).responses[200].headers).toHaveProperty('ETag');
    }
    expect(op('delete', '/api/comment/{id}').responses).not.toHaveProperty('304');
    const redirect = op('get', '/api/users/google').responses[302];
    expect(redirect.content).toBeUndefined();
    expect(redirect.headers).toHaveProperty('Location');
  });

  it('takes e-mail addresses as the server does, without a stricter pattern', async () => {
    const email = (op('post', '/api/users/logIn').requestBody!.content['application/json'].schema.properties as Record<string, Record<string, unknown>>).email;
    expect(email.pattern).toBeUndefined();
    expect(email.format).toBeUndefined();
    // The server trims and lower-cases the address; the reply check (test/openapi-replies.ts)
    // fails this request if the document refuses a body the server took.
    const user = await createTestUser(t.db, { email: 'kim@example.se' });
    const res = await t.app.inject({ method: 'POST', url: '/api/users/logIn', payload: { email: '  Kim@Example.SE ', password: user.password } });
    expect(res.statusCode).toBe(200);
  });

  it('documents one path item for the comments of a business and the removal of a comment', () => {
    expect(doc.paths['/api/comment/{businessId}']).toBeUndefined();
    expect(Object.keys(doc.paths['/api/comment/{id}']).sort()).toEqual(['delete', 'get']);
  });

  it('is what every reply of the integration suite is checked against', () => {
    const check = createReplyChecker(doc as unknown as OpenApiDocument);
    const json = (value: unknown) => Buffer.from(JSON.stringify(value));
    const error = json({ message: 'Not found.', key: 'notFound' });
    const reply = { method: 'GET', url: '/api/business/abc?x=1', status: 404, headers: { 'content-type': 'application/json' }, body: error };
    expect(check(reply)).toEqual([]);
    expect(check({ ...reply, status: 418 })[0]).toMatch(/lists no 418/);
    expect(check({ ...reply, body: json({ message: 'Nej' }) })[0]).toMatch(/must have required property 'key'/);
    // An error says the product's words: the English text of its key, fields too (issue 28, item 3).
    expect(check({ ...reply, body: json({ message: 'Nej', key: 'notFound' }) })[0]).toMatch(/is not the text of key "notFound"/);
    const leak = json({ message: 'Invalid input.', key: 'invalidInput', errors: { limit: 'Too small: expected number to be >=1' } });
    expect(check({ ...reply, status: 400, body: leak })[0]).toMatch(/field limit says "Too small: expected number to be >=1", not a message of ours/);
    expect(check({ ...reply, status: 304, body: Buffer.alloc(0), headers: { etag: '"x"' } })).toEqual([]);
    expect(check({ ...reply, url: '/api/business/categories', status: 200, body: json([]), headers: { 'x-next-cursor': 'abc' } })[0]).toMatch(
      /x-next-cursor is not documented/,
    );
    expect(check({ ...reply, url: '/api/users/google', status: 302, body: error })[0]).toMatch(/a body where the document has none/);
    // HEAD is checked as its GET without a body; paths the document does not have are not checked.
    expect(check({ ...reply, method: 'HEAD', status: 200, body: Buffer.alloc(0) })).toEqual([]);
    expect(check({ ...reply, url: '/api/nothing-here' })).toEqual([]);
    // A JSON body the server took must be one the document allows.
    const signedIn = { method: 'POST', url: '/api/users/logIn', status: 401, headers: {}, body: error, requestJson: { email: 'a@b.se' } };
    expect(check(signedIn)).toEqual([]);
    expect(check({ ...signedIn, status: 200, body: json({}) }).join('\n')).toMatch(/document refuses: {2}must have required property 'password'/);
    // So must a multipart form the server took: its field names, files and text values.
    const posted = { method: 'POST', url: '/api/comment/create/abc', status: 201, headers: {}, body: Buffer.alloc(0) };
    const form = (requestForm: Record<string, string>) => check({ ...posted, requestForm }).filter((p) => p.includes('server took'));
    expect(form({ text: 'Hej hej', branchId: 'b1', image: FILE })).toEqual([]);
    expect(form({ text: 'Hej hej', businessLocation: 'Lund', rate: '4' })).toEqual([]);
    expect(form({ text: 'Hej hej', secret: 'x' })[0]).toMatch(/took a field secret the document does not list/);
    expect(form({ text: 'Hej hej', businessLocation: 'x'.repeat(LOCATION_MAX + 1) })[0]).toMatch(/document refuses: \/businessLocation/);
    expect(form({ text: FILE })[0]).toMatch(/took a file in text/);
    expect(
      check({ ...posted, url: '/api/comment/update/abc', method: 'PUT', status: 200, requestForm: { text: 'Hej', rate: '5', branchId: 'b' } }).filter((p) =>
        p.includes('server took'),
      ),
    ).toEqual([]);
  });
});
