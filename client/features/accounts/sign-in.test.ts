import { describe, expect, it } from 'vitest';
import { loginHref, safeNext } from './sign-in';

describe('where a login comes back to', () => {
  it('keeps a path on this site with its query and fragment', () => {
    expect(safeNext('/business/abc123')).toBe('/business/abc123');
    expect(safeNext('/comment/xyz?lang=en#reply-1')).toBe('/comment/xyz?lang=en#reply-1');
    expect(safeNext('/user-mng')).toBe('/user-mng');
    expect(safeNext('/a/./b/../business')).toBe('/a/business');
    expect(safeNext('/business?next=//evil.example')).toBe('/business?next=//evil.example');
  });

  it('never leaves the site: other origins, protocol-relative and backslash tricks fall back to /user', () => {
    for (const raw of [
      null,
      '',
      'business',
      'https://evil.example/',
      '//evil.example',
      '//evil.example/business',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '\\/evil.example',
      'javascript:alert(1)',
      ' /business',
      // Issue 27 (8): dot segments resolve to a protocol-relative path.
      '/.//evil.example',
      '/./\\evil.example',
      '/..//evil.example',
      '/a/..//evil.example',
      '/a/../..//evil.example/x?y#z',
      '/%2e//evil.example',
      '/%2E%2E//evil.example',
      '/.%2e//evil.example',
      '/././/evil.example',
      '/.\\/evil.example',
      '/.//\\evil.example',
      '/.\t//evil.example',
      '/.\n//evil.example',
      '/.///evil.example',
    ]) {
      expect(safeNext(raw), JSON.stringify(raw)).toBe('/user');
    }
  });

  it('links the login page with the place to come back to', () => {
    expect(loginHref('/business/abc123')).toBe('/login?next=%2Fbusiness%2Fabc123');
    expect(loginHref('/business?q=ica#top')).toBe('/login?next=%2Fbusiness%3Fq%3Dica%23top');
    expect(loginHref('//evil.example')).toBe('/login');
    expect(loginHref('/login?next=%2Fuser')).toBe('/login');
    expect(loginHref('/registration')).toBe('/login');
  });
});
