'use strict';
/*
 * Whether the same-work yardstick gives the service's answers: the benchmark's three requests, the next
 * page their `Link` names, and the bad inputs the product decisions name, sent to both. Status, body and
 * every header must match, except the values that differ from answer to answer (the date and the rate
 * window). A created pet's id may differ; its Location must name it. Not part of the product.
 */
const json = { 'content-type': 'application/json' };
const post = (body, headers = json) => ({ method: 'POST', path: '/v1/pets', headers, body });
/** Reads and bad inputs first, creates last, so that two servers on one database list the same pets. */
const REQUESTS = [
  ...['limit=20&status=available', 'limit=007', '', 'limit=101', 'limit=abc', 'limit=1.5', 'limit=', 'status=lost', 'limit=5&limit=6'].map(
    (query) => ({ path: `/v1/pets?${query}`, follow: true }),
  ),
  // A cursor of the right shape signed with another secret, one with a character outside base64url, a short one.
  ...['cursor=AQEAAAAAAAAAAmLUgE1-0C5EzbY5jb0AzDA', 'cursor=%2F%2F', 'limit=2&status=sold&cursor=AAAA'].map((query) => ({
    path: `/v1/pets?${query}`,
  })),
  ...['1', '0001', '0', 'abc', '-1', '9223372036854775808', '9223372036854775807'].map((id) => ({ path: `/v1/pets/${id}` })),
  { path: '/v1/pets', headers: { authorization: 'Bearer pet_unknown' } },
  { path: '/v1/pets/1', headers: { authorization: '' } },
  post(undefined, {}),
  post(''),
  post('{"name":'),
  post('[]'),
  post('{}'),
  post('{"name":" ","categoryId":"7","status":"lost","extra":1}'),
  post('{"name":{"a":1},"categoryId":[7]}'),
  post('{"name":"Bench","categoryId":7}', { 'content-type': 'text/plain' }),
  post('{"name":"Bench","categoryId":7,"status":"pending"}'),
  post('{"name":"Bench","categoryId":7}'),
];
const VARYING = new Set(['date', 'ratelimit']);

async function answer(baseUrl, { method = 'GET', path, headers = {}, body }, auth) {
  // Both echo a valid incoming request id, so X-Request-Id is compared too.
  const response = await fetch(`${baseUrl}${path}`, { method, headers: { ...auth, 'x-request-id': 'parity', ...headers }, body });
  const headersOf = Object.fromEntries([...response.headers].filter(([name]) => !VARYING.has(name)));
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : text;
  if (response.status === 201 && headersOf.location === `/v1/pets/${parsed.id}`) {
    headersOf.location = '/v1/pets/{id}';
    parsed.id = '{id}';
  }
  return { status: response.status, headers: headersOf, body: parsed };
}

/** The differences between the two servers' answers, as readable lines; none when they match. */
async function differences(serviceUrl, yardstickUrl, auth) {
  const found = [];
  const compare = async (request) => {
    const [service, yardstick] = [await answer(serviceUrl, request, auth), await answer(yardstickUrl, request, auth)];
    const parts = [
      ['status', service.status, yardstick.status],
      ...[...new Set([...Object.keys(service.headers), ...Object.keys(yardstick.headers)])].map((name) => [
        name,
        service.headers[name],
        yardstick.headers[name],
      ]),
      ['body', service.body, yardstick.body],
    ].filter(([, a, b]) => JSON.stringify(a) !== JSON.stringify(b));
    const shown = parts.map(([part, a, b]) => `\n  ${part}: service ${JSON.stringify(a)}, yardstick ${JSON.stringify(b)}`);
    if (parts.length > 0) found.push(`${request.method ?? 'GET'} ${request.path} ${request.body ?? ''}${shown.join('')}`);
    return service;
  };
  for (const request of REQUESTS) {
    const service = await compare(request);
    const next = request.follow && /^<([^>]+)>; rel="next"$/.exec(service.headers.link ?? '');
    if (next) await compare({ path: next[1] });
  }
  return found;
}

module.exports = { differences };
