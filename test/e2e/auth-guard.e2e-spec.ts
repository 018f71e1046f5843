import { request as httpRequest, Agent } from 'node:http';
import { PATH_METADATA, METHOD_METADATA } from '../../apps/api/node_modules/@nestjs/common/constants';
import { RequestMethod } from '../../apps/api/node_modules/@nestjs/common';
import { ModulesContainer } from '../../apps/api/node_modules/@nestjs/core';
import { IS_PUBLIC, REQUIRED_SCOPES } from '../../apps/api/src/auth/auth.decorator';
import { hostileHeaders } from '../support/hostile-headers';
import { useTestApp } from '../support/test-app';
import { TEST_API_KEY } from '../support/test-key';

// A real database on a shared 2-core machine: starting it may take a while under load.
jest.setTimeout(120_000);

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** node:http, not fetch: fetch refuses some header bytes the server must still cope with. */
function send(baseUrl: string, agent: Agent, path: string, authorization: string | undefined): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { agent, method: 'GET' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    // Header values go out as latin1, so a UTF-8 string is sent as its raw bytes.
    if (authorization !== undefined) req.setHeader('authorization', Buffer.from(authorization, 'utf8').toString('latin1'));
    req.on('error', reject);
    req.end();
  });
}

describe('the global guard (e2e)', () => {
  const api = useTestApp();
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  afterAll(() => agent.destroy());

  it('answers 1,000 hostile Authorization headers with 401 and the Error body, never a 5xx', async () => {
    const headers = hostileHeaders();
    const paths = ['/v1/pets', '/v1/pets/1', '/v1/store/orders', '/v1/pets?access_token=' + TEST_API_KEY];
    const failures: string[] = [];
    for (let start = 0; start < headers.length; start += 20) {
      await Promise.all(
        headers.slice(start, start + 20).map(async (authorization, offset) => {
          const index = start + offset;
          const response = await send(api.baseUrl, agent, paths[index % paths.length], authorization);
          const presented = /^bearer\s/i.test((authorization ?? '').trim());
          const ok =
            response.status === 401 &&
            response.headers['content-type'] === 'application/json; charset=utf-8' &&
            response.headers['www-authenticate'] === (presented ? 'Bearer error="invalid_token"' : 'Bearer') &&
            JSON.stringify(Object.keys(JSON.parse(response.text))) === '["code","message","status"]' &&
            JSON.parse(response.text).code === 'unauthorized' &&
            JSON.parse(response.text).status === 401;
          if (!ok)
            failures.push(
              `#${index} ${JSON.stringify(authorization?.slice(0, 80))}: ${response.status} ${response.headers['www-authenticate']} ${response.text.slice(0, 200)}`,
            );
        }),
      );
    }
    expect(failures).toEqual([]);
    // The service is still fine afterwards.
    expect((await send(api.baseUrl, agent, '/v1/pets', `Bearer ${TEST_API_KEY}`)).status).toBe(200);
  });

  it('guards every route the server has, except the ones marked public', async () => {
    const fastify = api.app.getHttpAdapter().getInstance();
    const routes = parseRoutes(fastify.printRoutes({ commonPrefix: false }));
    expect(routes).toEqual(
      expect.arrayContaining([
        { method: 'GET', url: '/v1/pets' },
        { method: 'GET', url: '/docs/openapi.json' },
      ]),
    );

    const handlers = nestHandlers(api.app.get(ModulesContainer));
    const problems: string[] = [];
    for (const route of routes) {
      const handler = handlers.find(
        (h) => (h.method === route.method || (route.method === 'HEAD' && h.method === 'GET')) && h.urls.includes(route.url),
      );
      // Swagger's routes are registered on Fastify by SwaggerModule, outside Nest: public by design.
      const docs = route.url === '/docs' || route.url.startsWith('/docs/');
      if (!handler && !docs) {
        problems.push(`${route.method} ${route.url} is registered outside Nest, so the guard never sees it`);
        continue;
      }
      const isPublic = docs || handler!.isPublic;
      if (!isPublic && handler!.scopes.length === 0) problems.push(`${route.method} ${route.url} names no scope (@RequireScopes)`);
      const path = route.url.replace(/:[^/]+/g, '1').replace(/\*/g, 'x');
      const response = await send(api.baseUrl, agent, path, undefined);
      if (isPublic && response.status === 401) problems.push(`${route.method} ${route.url} is public but answered 401`);
      if (
        !isPublic &&
        (response.status !== 401 || response.headers['www-authenticate'] !== 'Bearer' || JSON.parse(response.text).code !== 'unauthorized')
      ) {
        problems.push(`${route.method} ${route.url} answered ${response.status} without a key`);
      }
    }
    expect(problems).toEqual([]);
  });
});

/** Fastify's route tree (printRoutes, no common prefix) as a flat list of method and full URL. */
function parseRoutes(tree: string): { method: string; url: string }[] {
  const stack: string[] = [];
  const routes: { method: string; url: string }[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    stack.push(match[2]);
    const methods = (match[3] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m !== '' && m !== '-');
    for (const method of methods) routes.push({ method, url: stack.join('') });
  }
  return routes;
}

interface NestHandler {
  method: string;
  urls: string[];
  isPublic: boolean;
  scopes: string[];
}

/** Every Nest route handler with its public marker and scopes, read from the decorators' metadata. */
function nestHandlers(modules: ModulesContainer): NestHandler[] {
  const handlers: NestHandler[] = [];
  const join = (...parts: string[]) => `/${parts.join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new () => unknown) | null;
      if (!controller) continue;
      const controllerPaths = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat() as string[];
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const method = controller.prototype[name];
        if (typeof method !== 'function' || Reflect.getMetadata(METHOD_METADATA, method) === undefined) continue;
        const methodPaths = [Reflect.getMetadata(PATH_METADATA, method) ?? ''].flat() as string[];
        const urls = controllerPaths.flatMap((c) => methodPaths.flatMap((m) => [join('v1', c, m), join(c, m)]));
        handlers.push({
          method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, method) as number],
          urls,
          isPublic: Boolean(Reflect.getMetadata(IS_PUBLIC, method) ?? Reflect.getMetadata(IS_PUBLIC, controller)),
          scopes: Reflect.getMetadata(REQUIRED_SCOPES, method) ?? Reflect.getMetadata(REQUIRED_SCOPES, controller) ?? [],
        });
      }
    }
  }
  return handlers;
}
