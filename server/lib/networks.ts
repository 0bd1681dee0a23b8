import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a client address belongs to, as the login and mail limits count it: the /24 of
 * an IPv4 address (an IPv4-mapped IPv6 address is one), the /64 of an IPv6 address (one
 * customer's prefix; its 2^64 addresses are one place). Anything else is taken as it is.
 */
export function networkOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const v4 = mapped ?? ip;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  const v6 = ip.split('%')[0] ?? ip;
  if (!isIPv6(v6)) return ip;
  const [head = '', tail] = v6.toLowerCase().split('::');
  const part = (text: string | undefined) => (text ? text.split(':') : []);
  // An embedded IPv4 tail (two groups' worth) lies past the first 64 bits: it only pads.
  const tailGroups = part(tail).flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const groups =
    tail === undefined ? part(head) : [...part(head), ...Array<string>(Math.max(0, 8 - part(head).length - tailGroups.length)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/**
 * Who a per-client limit counts: an IPv4 address itself (many people share one behind a home or
 * office NAT, and a host has only one), an IPv6 address by its /64 (every host has a whole /64
 * to pick addresses from).
 */
export function clientKeyOf(ip: string): string {
  return ip.includes(':') && !/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? networkOf(ip) : ip.replace(/^::ffff:/i, '');
}
