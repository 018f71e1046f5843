import ipaddr from 'ipaddr.js';

/**
 * The key a client address is counted under: an IPv4 address as is (its IPv4-mapped IPv6 form
 * `::ffff:203.0.113.7` included), an IPv6 address by its /64 network, the smallest block handed to one
 * subscriber: counting each of its 2^64 addresses apart would let one client fail without end.
 */
export function clientAddressKey(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return address ?? 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
