'use strict';
/*
 * The floor the service is measured against: bare Fastify + pg doing the same three operations with a
 * hash-map key check and one parameterised query each (bare-api.js), and nothing else. Not part of the
 * product. Env: DATABASE_URL, API_KEYS, PORT, DATABASE_POOL_SIZE.
 */
const { keyIdOf, unauthorized, serve } = require('./bare-api');

const fastify = require('fastify')({ logger: false });
fastify.addHook('onRequest', async (request, reply) => {
  if (!keyIdOf(request)) return unauthorized(request, reply);
});
serve(fastify);
