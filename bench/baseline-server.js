'use strict';
/*
 * The floor the service is measured against: bare Fastify + pg doing the same three operations with a
 * hash-set key check and one parameterised query each. Not part of the product; no validation beyond
 * what the queries need. Env: DATABASE_URL, API_KEYS, PORT, DATABASE_POOL_SIZE.
 */
const { createHash } = require('node:crypto');
const fastify = require('fastify')({ logger: false });
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE || 10) });
const digest = (key) => createHash('sha256').update(key, 'utf8').digest('hex');
const keys = new Set((process.env.API_KEYS || '').split(',').filter(Boolean).map(digest));
const toPet = (row) => ({ id: Number(row.id), name: row.name, categoryId: Number(row.category_id), status: row.status });

fastify.addHook('onRequest', async (request, reply) => {
  const header = request.headers.authorization || '';
  if (!header.startsWith('Bearer ') || !keys.has(digest(header.slice(7)))) {
    reply.code(401).send({ code: 'unauthorized', message: 'unauthorized', status: 401 });
  }
});

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

process.on('SIGTERM', () => process.exit(0));
fastify.listen({ port: Number(process.env.PORT || 0), host: '127.0.0.1' }).then(
  (address) => console.log(`listening on ${address}`),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
