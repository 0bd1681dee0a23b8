import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEarlyQuery, withEarly } from './early-data';

const answer = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }));

describe('early query', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('hands its answer to the first matching query call, once', async () => {
    const fetchMock = vi.fn(() => answer(200, { result: { data: { id: 'a', title: 'Early' } } }));
    vi.stubGlobal('fetch', fetchMock);
    startEarlyQuery('business.byId', { id: 'a' });
    expect(fetchMock).toHaveBeenCalledWith('/trpc/business.byId?input=%7B%22id%22%3A%22a%22%7D', { credentials: 'same-origin' });

    const own = vi.fn(() => Promise.resolve({ id: 'a', title: 'Own' }));
    const queryFn = withEarly('business.byId', { id: 'a' }, own);
    expect(await queryFn(undefined)).toEqual({ id: 'a', title: 'Early' });
    expect(own).not.toHaveBeenCalled();
    // A refetch asks the server again.
    expect(await queryFn(undefined)).toEqual({ id: 'a', title: 'Own' });
  });

  it('leaves other queries and failed early requests to the usual request', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => answer(404, { error: { message: 'Business not found.' } })),
    );
    startEarlyQuery('business.byId', { id: 'gone' });
    const other = vi.fn(() => Promise.resolve('other'));
    expect(await withEarly('business.byId', { id: 'b' }, other)(undefined)).toBe('other');
    const own = vi.fn(() => Promise.reject(new Error('404 from the app client')));
    await expect(withEarly('business.byId', { id: 'gone' }, own)(undefined)).rejects.toThrow('404 from the app client');
    expect(own).toHaveBeenCalledTimes(1);
  });
});
