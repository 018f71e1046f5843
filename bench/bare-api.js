'use strict';
/*
 * What both yardsticks share: bare Fastify + pg, the API keys as a map from SHA-256 digest to key id, the
 * service's 401 answers, and the start; and the bare yardstick's three operations, one parameterised query
 * each and no validation beyond what the queries need. Not part of the product.
 * Env: DATABASE_URL, API_KEYS, PORT, DATABASE_POOL_SIZE.
 */
const { createHash } = require('node:crypto');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE || 10) });
const digest = (key) => createHash('sha256').update(key, 'utf8').digest('hex');
const keys = new Map(
  (process.env.API_KEYS || '')
    .split(',')
    .filter(Boolean)
    .map((key) => [digest(key), `env-${digest(key).slice(0, 16)}`]),
);
const toPet = (row) => ({ id: Number(row.id), name: row.name, categoryId: Number(row.category_id), status: row.status });

/** The key id of the request's bearer key, or undefined. */
function keyIdOf(request) {
  const header = request.headers.authorization || '';
  return header.startsWith('Bearer ') ? keys.get(digest(header.slice(7))) : undefined;
}

function unauthorized(request, reply) {
  const presented = /^bearer\s/i.test(request.headers.authorization || '');
  const message = presented
    ? 'The API key is invalid: send "Authorization: Bearer <API key>" with a valid key'
    : 'An API key is required: send "Authorization: Bearer <API key>"';
  reply.header('www-authenticate', presented ? 'Bearer error="invalid_token"' : 'Bearer');
  return reply.code(401).send({ code: 'unauthorized', message, status: 401 });
}

/** The bare yardstick's operations. */
function bareRoutes(fastify) {
  fastify.get('/v1/pets', async (request) => {
    const limit = Number(request.query.limit || 20);
    const { rows } = request.query.status
      ? await pool.query('SELECT id, name, category_id, status FROM pets WHERE status = $1 ORDER BY id LIMIT $2', [request.query.status, limit])
      : await pool.query('SELECT id, name, category_id, status FROM pets ORDER BY id LIMIT $1', [limit]);
    return rows.map(toPet);
  });

  fastify.get('/v1/pets/:id', async (request, reply) => {
    const { rows } = await pool.query('SELECT id, name, category_id, status FROM pets WHERE id = $1', [request.params.id]);
    if (rows.length === 0) return reply.code(404).send({ code: 'not_found', message: 'not found', status: 404 });
    return toPet(rows[0]);
  });

  fastify.post('/v1/pets', async (request, reply) => {
    const { name, categoryId, status = 'available' } = request.body;
    const { rows } = await pool.query('INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING id, name, category_id, status', [
      name,
      categoryId,
      status,
    ]);
    reply.code(201).header('location', `/v1/pets/${rows[0].id}`);
    return toPet(rows[0]);
  });
}

/** Registers `routes` (the bare operations unless given) on `fastify` and starts it, printing `listening on …`. */
function serve(fastify, { routes = bareRoutes, onStop = () => undefined } = {}) {
  routes(fastify);
  process.on('SIGTERM', () => {
    onStop();
    process.exit(0);
  });
  fastify.listen({ port: Number(process.env.PORT || 0), host: '127.0.0.1' }).then(
    (address) => console.log(`listening on ${address}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}

module.exports = { pool, toPet, keyIdOf, unauthorized, serve };
