import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  InternalServerErrorException,
  NotFoundException,
  PayloadTooLargeException,
  UnauthorizedException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { ERROR_CODES, ERROR_STATUS } from '@petstore/contracts';
import { DomainError, RateLimitedError, UnauthorizedError, ValidationFailedError } from './domain-error';
import { codeForStatus, mapError } from './error-mapping';
import { RouteTable } from './route-table';

const GET_PETS = { method: 'GET', url: '/v1/pets?limit=5' };
const INTERNAL = { code: 'internal_error', message: 'An unexpected error occurred; it has been logged', status: 500 };

/** An error shaped as pg raises it: a message and a SQLSTATE or network code. */
const driverError = (code: string, message = 'driver failure') => Object.assign(new Error(message), { code });
/** An error shaped as TypeORM wraps a driver error (QueryFailedError keeps it as driverError). */
const typeormError = (driver: unknown) =>
  Object.assign(new Error('Query failed: SELECT secret FROM pets'), { name: 'QueryFailedError', driverError: driver });

describe('mapError', () => {
  describe('domain errors', () => {
    it.each(ERROR_CODES)('sends %s with its own status and message', (code) => {
      const mapped = mapError(new DomainError(code, `about ${code}`), GET_PETS);
      expect(mapped.body).toEqual({ code, message: `about ${code}`, status: ERROR_STATUS[code] });
      expect(mapped.unexpected).toBe(code === 'internal_error');
    });

    it('carries validation details', () => {
      const mapped = mapError(new ValidationFailedError([{ field: 'name', message: 'name is required' }]), GET_PETS);
      expect(mapped).toEqual({
        body: { code: 'validation_failed', message: 'name is required', status: 400, details: [{ field: 'name', message: 'name is required' }] },
        headers: {},
        unexpected: false,
      });
    });

    it('adds WWW-Authenticate: Bearer to a missing key and error="invalid_token" to a refused one', () => {
      expect(mapError(new UnauthorizedError('no key', false), GET_PETS).headers).toEqual({ 'www-authenticate': 'Bearer' });
      expect(mapError(new UnauthorizedError('bad key', true), GET_PETS).headers).toEqual({ 'www-authenticate': 'Bearer error="invalid_token"' });
      expect(mapError(new UnauthorizedError('old key', true, 'The access token expired'), GET_PETS).headers).toEqual({
        'www-authenticate': 'Bearer error="invalid_token", error_description="The access token expired"',
      });
    });

    it('adds Retry-After to rate_limited', () => {
      const mapped = mapError(new RateLimitedError(7), GET_PETS);
      expect(mapped.body).toEqual({ code: 'rate_limited', message: 'Too many requests: retry after 7 seconds', status: 429 });
      expect(mapped.headers).toEqual({ 'retry-after': '7' });
    });
  });

  describe('HttpException', () => {
    it.each([
      [new BadRequestException('limit is wrong'), 'validation_failed', 'limit is wrong'],
      [new BadRequestException(['a is wrong', 'b is wrong']), 'validation_failed', 'a is wrong; b is wrong'],
      [new ForbiddenException('no scope'), 'forbidden', 'no scope'],
      [new PayloadTooLargeException('too big'), 'payload_too_large', 'too big'],
      [new UnsupportedMediaTypeException('not json'), 'unsupported_media_type', 'not json'],
      [new HttpException('plain text', 409), 'request_in_progress', 'plain text'],
      [new NotFoundException('nothing here'), 'not_found', 'nothing here'],
    ])('maps %p to %s', (exception, code, message) => {
      const mapped = mapError(exception, GET_PETS);
      expect(mapped).toEqual({ body: { code, message, status: exception.getStatus() }, headers: {}, unexpected: false });
    });

    it('adds WWW-Authenticate: Bearer to a 401', () => {
      const mapped = mapError(new UnauthorizedException('who are you'), GET_PETS);
      expect(mapped.body).toEqual({ code: 'unauthorized', message: 'who are you', status: 401 });
      expect(mapped.headers).toEqual({ 'www-authenticate': 'Bearer' });
    });

    it.each([
      new InternalServerErrorException('SELECT * FROM secret_table'),
      new HttpException('teapot internals', 418),
      new HttpException('bad gateway', 502),
    ])('maps %p to internal_error without its message', (exception) => {
      expect(mapError(exception, GET_PETS)).toEqual({ body: INTERNAL, headers: {}, unexpected: true });
    });

    describe('with a route table: 404 or 405', () => {
      const routes = new RouteTable();
      routes.add(['GET', 'HEAD'], '/v1/pets');
      routes.add('POST', '/v1/pets');
      routes.add('GET', '/v1/pets/:petId');

      it('answers 404 naming the method and path (without the query) when no route has the path', () => {
        const mapped = mapError(new NotFoundException('Cannot GET /pets'), { method: 'get', url: '/pets?limit=1' }, routes);
        expect(mapped).toEqual({ body: { code: 'not_found', message: 'No route matches GET /pets', status: 404 }, headers: {}, unexpected: false });
      });

      it('shortens a long path in the message', () => {
        const url = `/${'a'.repeat(500)}`;
        expect(mapError(new NotFoundException(), { method: 'GET', url }, routes).body.message).toBe(`No route matches GET ${url.slice(0, 200)}…`);
      });

      it('answers 405 with Allow when the path exists for other methods', () => {
        const mapped = mapError(new NotFoundException(), { method: 'DELETE', url: '/v1/pets/12' }, routes);
        expect(mapped).toEqual({
          body: { code: 'method_not_allowed', message: 'DELETE is not allowed on /v1/pets/12; allowed: GET', status: 405 },
          headers: { allow: 'GET' },
          unexpected: false,
        });
        expect(mapError(new NotFoundException(), { method: 'PUT', url: '/v1/pets' }, routes).headers).toEqual({ allow: 'GET, HEAD, POST' });
      });

      it('keeps a 404 raised by a matched route (no such pet) as not_found with its message', () => {
        const mapped = mapError(new NotFoundException('No pet with id 9'), { method: 'GET', url: '/v1/pets/9' }, routes);
        expect(mapped.body).toEqual({ code: 'not_found', message: 'No pet with id 9', status: 404 });
      });
    });
  });

  describe("Fastify's FST_ errors", () => {
    const fastifyError = (code: string, statusCode?: number, message = 'fastify says no') => Object.assign(new Error(message), { code, statusCode });

    it.each([
      ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'unsupported_media_type', 415],
      ['FST_ERR_CTP_BODY_TOO_LARGE', 'payload_too_large', 413],
      ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'validation_failed', 400],
      ['FST_ERR_CTP_EMPTY_JSON_BODY', 'validation_failed', 400],
      ['FST_ERR_CTP_INVALID_JSON_BODY', 'malformed_json', 400],
      ['FST_ERR_BAD_URL', 'validation_failed', 400],
      ['FST_ERR_ASYNC_CONSTRAINT', 'validation_failed', 400],
      ['FST_ERR_MAX_PARAM_LENGTH', 'validation_failed', 400],
    ])('maps %s to %s', (code, expected, status) => {
      const mapped = mapError(fastifyError(code, status), GET_PETS);
      expect(mapped.body.code).toBe(expected);
      expect(mapped.body.status).toBe(status);
      expect(mapped.body.message).not.toContain('fastify says no');
      expect(mapped.unexpected).toBe(false);
    });

    it('maps another FST_ code by its status code, keeping a client-error message', () => {
      expect(mapError(fastifyError('FST_ERR_SOMETHING', 404, 'route gone'), GET_PETS).body).toEqual({
        code: 'not_found',
        message: 'route gone',
        status: 404,
      });
    });

    it('maps an FST_ code without a client status to internal_error, hiding its message', () => {
      expect(mapError(fastifyError('FST_ERR_HOOK_TIMEOUT', 500, 'hook internals'), GET_PETS)).toEqual({
        body: INTERNAL,
        headers: {},
        unexpected: true,
      });
      expect(mapError(fastifyError('FST_ERR_UNKNOWN'), GET_PETS)).toEqual({ body: INTERNAL, headers: {}, unexpected: true });
    });
  });

  describe('anything else: internal_error, message never sent', () => {
    it.each([
      ['an Error', new Error('secret stack detail')],
      ['a TypeORM query failure', typeormError(driverError('23505', 'duplicate key value violates unique constraint "pets_pkey"'))],
      ['a string', 'boom'],
      ['null', null],
      ['undefined', undefined],
      ['a plain object', { message: 'internal' }],
    ])('%s', (_case, thrown) => {
      expect(mapError(thrown, GET_PETS)).toEqual({ body: INTERNAL, headers: {}, unexpected: true });
    });
  });
});

describe('codeForStatus', () => {
  it('is the inverse of ERROR_STATUS for every status that has exactly one code', () => {
    for (const code of ERROR_CODES) {
      if (ERROR_CODES.filter((other) => ERROR_STATUS[other] === ERROR_STATUS[code]).length > 1) continue;
      expect(codeForStatus(ERROR_STATUS[code])).toBe(code);
    }
  });

  it('maps a bare 400 to validation_failed, the first 400 of the catalogue', () => {
    expect(codeForStatus(400)).toBe('validation_failed');
  });

  it.each([418, 500, 502, 504, 302])('maps %d to internal_error', (status) => {
    expect(codeForStatus(status)).toBe('internal_error');
  });
});
