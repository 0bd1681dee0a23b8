/**
 * The network an address belongs to: its /24 (IPv4, also IPv4-mapped IPv6) or /64 (IPv6). One
 * home, office or cloud host gets one of these, so limits that must not be dodged by hopping
 * addresses count per network.
 */
export function networkOf(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+)\.\d+$/i.exec(ip);
  if (v4) return `${v4[1]}.0/24`;
  const groups = ip.split('::')[0].split(':');
  return ip.includes(':') ? `${groups.slice(0, 4).join(':')}::/64` : ip;
}

/**
 * Who a per-client limit counts: an IPv4 address itself (many people share one behind a home or
 * office NAT, and a host has only one), an IPv6 address by its /64 (every host has a whole /64
 * to pick addresses from).
 */
export function clientKeyOf(ip: string): string {
  return ip.includes(':') && !/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? networkOf(ip) : ip.replace(/^::ffff:/i, '');
}
