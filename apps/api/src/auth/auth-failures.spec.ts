import { AuthFailureLimiter } from './auth-failures';

describe('AuthFailureLimiter', () => {
  let now = 0;
  const limiter = () => new AuthFailureLimiter(3, 2, () => now);

  beforeEach(() => (now = 1_000_000));

  it('lets an address fail its budget, then refuses it until its minute ends', () => {
    const failures = limiter();
    for (let i = 0; i < 3; i++) {
      expect(failures.retryAfterSeconds('10.0.0.1')).toBe(0);
      failures.recordFailure('10.0.0.1');
    }
    expect(failures.retryAfterSeconds('10.0.0.1')).toBe(60);
    now += 59_500;
    expect(failures.retryAfterSeconds('10.0.0.1')).toBe(1);
    now += 500;
    expect(failures.retryAfterSeconds('10.0.0.1')).toBe(0);
    failures.recordFailure('10.0.0.1');
    expect(failures.retryAfterSeconds('10.0.0.1')).toBe(0);
  });

  it('counts each address apart and forgets the least recently seen past its capacity', () => {
    const failures = limiter();
    for (let i = 0; i < 3; i++) failures.recordFailure('a');
    failures.recordFailure('b');
    expect(failures.retryAfterSeconds('a')).toBe(60);
    expect(failures.retryAfterSeconds('b')).toBe(0);
    failures.recordFailure('c'); // capacity 2: a, seen longest ago, is forgotten
    expect(failures.retryAfterSeconds('a')).toBe(0);
  });
});
