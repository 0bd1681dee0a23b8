import { describe, expect, it } from 'vitest';
import { networkOf } from '../lib/networks';

describe('networkOf', () => {
  it('groups IPv4 by /24 and IPv6 by /64, whatever the spelling', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkOf('203.0.113.250')).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:203.0.113.9')).toBe('203.0.113.0/24');
    expect(networkOf('::FFFF:203.0.113.9')).toBe('203.0.113.0/24');
    expect(networkOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:DB8:1:2:ffff::')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('2001:db8::1:2:3:4:5')).toBe('2001:db8:0:1::/64');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('64:ff9b::203.0.113.1')).toBe('64:ff9b:0:0::/64');
    expect(networkOf('not-an-ip')).toBe('not-an-ip');
  });
});
