'use strict';
/*
 * The same-work yardstick's three operations: the least code that gives the service's answers, as
 * bench/parity.js checks. The query, the id and the body are checked by hand with the contract's own
 * rules and messages; the listing reads one pet more than its page to know whether a `Link` to the next
 * follows, with a cursor signed by createHmac in the service's format; the deprecated get carries its
 * headers on every answer. Not part of the product. Env: CURSOR_SECRET, besides bare-api.js's.
 */
const { createHmac, timingSafeEqual } = require('node:crypto');
const contract = require('@petstore/contracts');
const { pool, toPet } = require('./bare-api');

const COLUMNS = 'id, name, category_id, status';
const PET_ID_MAX = BigInt(contract.PET_ID_MAX);
const SECRET = (process.env.CURSOR_SECRET || '').split(',')[0];
const GET_HEADERS = { deprecation: '@1767225600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' };

function invalid(reply, details) {
  const message = details.map((detail) => detail.message).join('; ');
  return reply.code(400).send({ code: 'validation_failed', message, status: 400, details });
}

// version 1 | status (0 = none, else 1 + its index) | last id (int64 BE), then 16 bytes of HMAC-SHA256.
const statusByte = (status) => (status === undefined ? 0 : contract.PET_STATUSES.indexOf(status) + 1);
const mac = (payload) => createHmac('sha256', SECRET).update(payload).digest().subarray(0, 16);

function issueCursor(lastId, status) {
  const payload = Buffer.alloc(10);
  payload[0] = 1;
  payload[1] = statusByte(status);
  payload.writeBigInt64BE(BigInt(lastId), 2);
  return Buffer.concat([payload, mac(payload)]).toString('base64url');
}

/** The last id of a cursor this server issued for `status`, else 0n. */
function readCursor(cursor, status) {
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length !== 26 || bytes.toString('base64url') !== cursor || bytes[0] !== 1 || bytes[1] !== statusByte(status)) return 0n;
  return timingSafeEqual(mac(bytes.subarray(0, 10)), bytes.subarray(10)) ? bytes.readBigInt64BE(2) : 0n;
}

function listQuery({ limit, status, cursor }) {
  const details = [];
  const count = typeof limit === 'string' && /^0*[0-9]{1,4}$/.test(limit) ? Number(limit) : NaN;
  if (limit !== undefined && !(count >= contract.LIST_LIMIT_MIN && count <= contract.LIST_LIMIT_MAX)) {
    details.push({ field: 'limit', message: contract.LIMIT_MESSAGE });
  }
  if (status !== undefined && !contract.PET_STATUSES.includes(status)) details.push({ field: 'status', message: contract.STATUS_MESSAGE });
  const after = typeof cursor === 'string' && /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? readCursor(cursor, status) : 0n;
  if (cursor !== undefined && after < 1n) details.push({ field: 'cursor', message: contract.CURSOR_MESSAGE });
  return { details, limit: limit === undefined ? contract.LIST_LIMIT_DEFAULT : count, after: String(after) };
}

/** The request's JSON text parsed; `undefined` when there is none. Throws a SyntaxError when it is not JSON. */
const parsed = (text) => (text === undefined || text === '' ? undefined : JSON.parse(text));

function newPetProblems(body) {
  if (body === undefined) return [{ field: 'body', message: 'The request body is required' }];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [{ field: 'body', message: 'body must be a JSON object' }];
  const value = (key) => (typeof body[key] === 'object' && body[key] !== null ? NaN : body[key]);
  const name = contract.petNameProblem(value('name'));
  const categoryId = contract.categoryIdProblem(value('categoryId'));
  return [
    ...(name ? [{ field: 'name', message: `name ${name}` }] : []),
    ...(categoryId ? [{ field: 'categoryId', message: `categoryId ${categoryId}` }] : []),
    ...(body.status !== undefined && !contract.PET_STATUSES.includes(body.status) ? [{ field: 'status', message: contract.STATUS_MESSAGE }] : []),
    ...Object.keys(body)
      .filter((key) => !contract.NEW_PET_FIELDS.includes(key))
      .map((key) => ({ field: key, message: `property ${key} is not allowed` })),
  ];
}

function deprecationHeaders(_request, reply, payload, done) {
  reply.headers(GET_HEADERS);
  done(null, payload);
}

function sameWorkRoutes(fastify) {
  fastify.get('/v1/pets', async (request, reply) => {
    const { details, limit, after } = listQuery(request.query);
    if (details.length > 0) return invalid(reply, details);
    const { status } = request.query;
    const { rows } = status
      ? await pool.query(`SELECT ${COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`, [status, after, limit + 1])
      : await pool.query(`SELECT ${COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`, [after, limit + 1]);
    if (rows.length > limit) {
      const params = [request.query.limit && `limit=${limit}`, status && `status=${status}`, `cursor=${issueCursor(rows[limit - 1].id, status)}`];
      reply.header('link', `</v1/pets?${params.filter(Boolean).join('&')}>; rel="next"`);
    }
    return rows.slice(0, limit).map(toPet);
  });

  fastify.get('/v1/pets/:id', { onSend: deprecationHeaders }, async (request, reply) => {
    const id = /^0*[1-9][0-9]{0,18}$/.test(request.params.id) ? BigInt(request.params.id) : 0n;
    if (id < 1n || id > PET_ID_MAX) {
      return invalid(reply, [{ field: 'petId', message: `petId must be an integer from 1 to ${contract.PET_ID_MAX}` }]);
    }
    const { rows } = await pool.query(`SELECT ${COLUMNS} FROM pets WHERE id = $1`, [String(id)]);
    if (rows.length === 0) return reply.code(404).send({ code: 'not_found', message: `No pet with id ${id}`, status: 404 });
    return toPet(rows[0]);
  });

  // As in the service, the body is read as text and parsed after the key is checked.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => done(null, text));
  fastify.post('/v1/pets', async (request, reply) => {
    let body;
    try {
      body = parsed(request.body);
    } catch {
      return reply.code(400).send({ code: 'malformed_json', message: 'The request body is not valid JSON (UTF-8)', status: 400 });
    }
    const details = newPetProblems(body);
    if (details.length > 0) return invalid(reply, details);
    const { name, categoryId, status = contract.DEFAULT_PET_STATUS } = body;
    const sql = `INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`;
    const { rows } = await pool.query(sql, [name, categoryId, status]);
    reply.code(201).header('location', `/v1/pets/${rows[0].id}`);
    return toPet(rows[0]);
  });
}

module.exports = { sameWorkRoutes };
