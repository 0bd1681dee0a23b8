import { describe, expect, it } from 'vitest';
import { activeSection, badgeText, scrollThreshold } from './nav-rules';

describe('nav rules', () => {
  it('marks Home only on / and Business on the directory and every business page', () => {
    expect(activeSection('/')).toBe('home');
    expect(activeSection('/business')).toBe('business');
    expect(activeSection('/business/abc123')).toBe('business');
    expect(activeSection('/business-mng')).toBeNull();
    expect(activeSection('/contact')).toBeNull();
  });

  it('caps the favourites badge at 99', () => {
    expect(badgeText(0)).toBe('0');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(12345)).toBe('99+');
  });

  it('shows scroll-to-top after 200 px on home and a business, 500 px on the directory, and nowhere else', () => {
    expect(scrollThreshold('/')).toBe(200);
    expect(scrollThreshold('/business/abc123')).toBe(200);
    expect(scrollThreshold('/business')).toBe(500);
    expect(scrollThreshold('/business/abc/extra')).toBeNull();
    expect(scrollThreshold('/business-mng')).toBeNull();
    expect(scrollThreshold('/policy')).toBeNull();
  });
});
