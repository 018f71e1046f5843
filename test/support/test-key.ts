// The suites' API key, apart from test-app.ts: importing that loads the whole app (1.7 s of CPU in jest),
// which a suite that only spawns the built service does not need.

// Random enough for production's secret rule: the cluster scenarios run their instances in production.
export const TEST_API_KEY = 'test-key-Vq7Lx2Rm9Tz4Kp8Wc3Nb6HjYs5Gd';
export const AUTH = { authorization: `Bearer ${TEST_API_KEY}` };
/** The id of TEST_API_KEY as an API_KEYS entry: from its SHA-256 digest, never from its position. */
export const TEST_KEY_ID = 'env-4481b1049fbc98c4';
