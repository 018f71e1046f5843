import ipaddr from 'ipaddr.js';
import { AuthFailureLimiter } from './auth-failures';
import { clientAddressKey } from './client-address';

describe('AuthFailureLimiter', () => {
  let now = 0;
  const limiter = (capacity = 2) => new AuthFailureLimiter(3, capacity, () => now);

  beforeEach(() => (now = 1_000_000));

  it('reserves the budget ahead of the look-ups, then refuses the address until its minute ends', () => {
    const failures = limiter();
    for (let i = 0; i < 3; i++) expect(failures.reserve('10.0.0.1')).toBe(0);
    expect(failures.reserve('10.0.0.1')).toBe(60);
    now += 59_500;
    expect(failures.reserve('10.0.0.1')).toBe(0); // one look-up a second while blocked
    expect(failures.reserve('10.0.0.1')).toBe(1);
    now += 500;
    for (let i = 0; i < 3; i++) expect(failures.reserve('10.0.0.1')).toBe(0);
  });

  it('gives a reservation back when the key is accepted: valid keys never spend the budget', () => {
    const failures = limiter();
    for (let i = 0; i < 10; i++) {
      expect(failures.reserve('10.0.0.1')).toBe(0);
      failures.release('10.0.0.1');
    }
    for (let i = 0; i < 3; i++) expect(failures.reserve('10.0.0.1')).toBe(0);
    expect(failures.reserve('10.0.0.1')).toBe(60);
  });

  it('lets a blocked address look one key up a second, so a valid key not cached yet still passes', () => {
    const failures = limiter();
    for (let i = 0; i < 3; i++) failures.reserve('a');
    expect(failures.reserve('a')).toBeGreaterThan(0);
    now += 1_000;
    expect(failures.reserve('a')).toBe(0);
    expect(failures.reserve('a')).toBeGreaterThan(0);
  });

  it('never forgets a blocked address for others that failed once', () => {
    const failures = limiter(2);
    for (let i = 0; i < 3; i++) failures.reserve('blocked');
    for (let i = 0; i < 10_000; i++) failures.reserve(`once-${i}`);
    expect(failures.reserve('blocked')).toBe(60);
  });
});

describe('clientAddressKey', () => {
  it('counts IPv6 per /64, IPv4-mapped addresses as IPv4, and keeps IPv4 as is', () => {
    expect(clientAddressKey('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey(undefined)).toBe('unknown');
  });

  it.each(['0.0.0.0', '9.99.199.255', '010.0.0.1', '1.2.3.04', '256.1.1.1', '127.1', '0x7f.0.0.1', '1.2.3.4 ', 'not an address'])(
    'keys %j as ipaddr.js reads it, whether or not it is in the usual form',
    (address) => {
      const expected = ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
      expect(clientAddressKey(address)).toBe(expected);
    },
  );
});
