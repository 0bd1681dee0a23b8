import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBusiness } from '../test/comment-fixtures';
import { createCast, createTestApp, type TestContext } from '../test/helpers';
import { formNumber } from './form-number';

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let shop: string;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  cast = await createCast(t.db);
  shop = insertBusiness(t.db, 'Siffrorna');
});
afterAll(() => t.close());

/** A multipart request as a browser's FormData sends it. */
async function sendForm(method: 'POST' | 'PUT', url: string, fields: Record<string, string>, token: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

const loose = ['0x4', '1e0', ' 4 ', '4.', '+4', '04', '4,0', 'Infinity', '٤'];

describe('numbers in multipart forms', () => {
  it('are read only in the documented form', () => {
    expect(formNumber('4', 'integer')).toBe(4);
    expect(formNumber('0', 'integer')).toBe(0);
    expect(formNumber('3.5', 'decimal')).toBe(3.5);
    expect(formNumber('3.5', 'integer')).toBe('3.5');
    for (const text of loose) expect(formNumber(text, 'decimal'), text).toBe(text);
  });

  it('refuse a loosely written star rating with a new comment', async () => {
    for (const rate of loose) {
      const res = await sendForm('POST', `/api/comment/create/${shop}`, { text: 'Bra siffror', businessLocation: 'Lund', rate }, cast.owner.token);
      expect(res.statusCode, rate).toBe(400);
      expect(res.json().errors, rate).toEqual({ rate: 'Choose a rating from 1 to 5.' });
    }
    const plain = await sendForm('POST', `/api/comment/create/${shop}`, { text: 'Bra siffror', businessLocation: 'Lund', rate: '4' }, cast.owner.token);
    expect(plain.statusCode).toBe(201);
  });

  it('refuse a loosely written business rate, and a fraction of a star as not whole', async () => {
    const fields = { title: 'Talbutiken', category: 'Café', description: 'Kaffe och tal.', 'branches[0][location]': 'Lund' };
    for (const rate of loose) {
      const res = await sendForm('POST', '/api/business/upload', { ...fields, rate }, cast.admin.token);
      expect(res.statusCode, rate).toBe(400);
      expect(res.json().errors, rate).toEqual({ rate: 'Invalid input.' });
    }
    // The admin's rate is the admin's own star rating: whole stars (docs/product.md §4).
    const decimal = await sendForm('POST', '/api/business/upload', { ...fields, rate: '3.5' }, cast.admin.token);
    expect(decimal.statusCode).toBe(400);
    expect(decimal.json().errors).toEqual({ rate: 'Rate must be a whole number of stars.' });
    const whole = await sendForm('POST', '/api/business/upload', { ...fields, rate: '4' }, cast.admin.token);
    expect(whole.statusCode).toBe(201);
    expect(whole.json()).toMatchObject({ rate: 4, ratingCount: 1 });
  });
});
