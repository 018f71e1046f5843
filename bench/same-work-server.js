'use strict';
/*
 * The same-work yardstick: the least code that gives the service's answers (same-work-routes.js: the
 * contract's checks, Error bodies, cursor, Link and deprecation headers) plus what the service does for
 * every answer that users see or operators read: one buffered pino JSON line with the service's fields,
 * helmet's security headers, X-Request-Id, RateLimit/RateLimit-Policy from an in-memory window, and a
 * prom-client counter and histogram whose series are bound once. Its ratio against the service isolates
 * what the framework and our code cost; bench/parity.js checks that the answers match. Not part of the
 * product. Env: DATABASE_URL, API_KEYS, CURSOR_SECRET, PORT, DATABASE_POOL_SIZE.
 */
const { randomUUID } = require('node:crypto');
const helmet = require('helmet').default;
const pino = require('pino');
const client = require('prom-client');
const { keyIdOf, unauthorized, serve } = require('./bare-api');
const { sameWorkRoutes } = require('./same-work-routes');

const logger = pino({ level: 'info' }, pino.destination({ dest: 1, sync: true, minLength: 4096 }));
setInterval(() => logger.flush(), 200).unref();
const fastify = require('fastify')({ logger: false, genReqId: requestIdOf, keepAliveTimeout: 75_000 });

function requestIdOf(raw) {
  const incoming = raw.headers['x-request-id'];
  return typeof incoming === 'string' && /^[A-Za-z0-9._-]{1,128}$/.test(incoming) ? incoming : randomUUID();
}

const SECURITY_HEADERS = {};
// As the service sends them over plain HTTP: no HSTS, no upgrade-insecure-requests.
helmet({ strictTransportSecurity: false, contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } })(
  {},
  { setHeader: (name, value) => (SECURITY_HEADERS[name.toLowerCase()] = String(value)), removeHeader: () => undefined },
  () => {},
);

const QUOTA = 1_000_000;
const WINDOW_MS = 60_000;
const windows = new Map();
function rateLimit(keyId, reply) {
  const now = Date.now();
  let window = windows.get(keyId);
  if (!window || window.resetAt <= now) windows.set(keyId, (window = { hits: 0, resetAt: now + WINDOW_MS }));
  window.hits += 1;
  reply.header('ratelimit-policy', `"default";q=${QUOTA};w=${WINDOW_MS / 1000}`);
  reply.header('ratelimit', `"default";r=${Math.max(0, QUOTA - window.hits)};t=${Math.ceil((window.resetAt - now) / 1000)}`);
}

const requests = new client.Counter({ name: 'http_requests_total', help: 'answers', labelNames: ['method', 'route', 'status'] });
const durations = new client.Histogram({ name: 'http_request_duration_seconds', help: 'durations', labelNames: ['method', 'route'] });
const bound = new Map();
function seriesOf(method, route, status) {
  const name = `${method} ${route} ${status}`;
  let series = bound.get(name);
  if (!series) bound.set(name, (series = { count: requests.labels(method, route, String(status)), time: durations.labels(method, route) }));
  return series;
}

fastify.addHook('onRequest', async (request, reply) => {
  reply.headers(SECURITY_HEADERS);
  reply.header('x-request-id', request.id);
  const keyId = keyIdOf(request);
  if (!keyId) return unauthorized(request, reply);
  request.keyId = keyId;
  rateLimit(keyId, reply);
});

fastify.addHook('onResponse', (request, reply, done) => {
  const route = request.routeOptions.url;
  const series = seriesOf(request.method, route, reply.statusCode);
  series.count.inc();
  series.time.observe(reply.elapsedTime / 1000);
  const req = { method: request.method, url: request.url };
  const res = { statusCode: reply.statusCode };
  logger.info(
    { requestId: request.id, req, route, res, durationMs: reply.elapsedTime, keyId: request.keyId },
    `${req.method} ${req.url} ${res.statusCode}`,
  );
  done();
});

// The service refuses a body of another type unread, and closes the connection.
fastify.setErrorHandler((error, _request, reply) => {
  if (error.code !== 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return reply.code(500).send({ code: 'internal_error', message: 'internal error', status: 500 });
  const message = 'The request body must be application/json in UTF-8 (another Content-Type was sent)';
  return reply.code(415).header('connection', 'close').send({ code: 'unsupported_media_type', message, status: 415 });
});

serve(fastify, { routes: sameWorkRoutes, onStop: () => logger.flush() });
