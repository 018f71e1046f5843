import { createHash } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_VERSION, contractSchemas } from '@petstore/contracts';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { onRequestHookHandler, onSendHookHandler } from 'fastify';
import { AppConfig } from '../config/config';

const DESCRIPTION = [
  'Keeps the records of the animals offered in the store: list them, add one, get one.',
  '',
  'Every operation needs an API key, sent as `Authorization: Bearer <API key>` (in Swagger UI: **Authorize**).',
  'Getting a key: a development start with no key anywhere creates one and prints it once on the console;',
  'otherwise create one with `pnpm -s keys create --name <label>` (add `--scopes pets:read` for a read-only key)',
  'on the same database, or set `API_KEYS`.',
  'Every error answers with the Error body `{ code, message, status }` as `application/json`;',
  'besides the statuses listed per operation, a path the service does not know answers 404 `not_found`',
  'and a known path with another method answers 405 `method_not_allowed` with an `Allow` header.',
  'A request that is not valid HTTP/1.1 answers 400 `malformed_request`, and one whose headers exceed 16 KiB 431',
  '`headers_too_large`, before any operation is chosen; the operations do not list them.',
].join('\n');

const header = (description: string, example: string, required = false) => ({ description, required, schema: { type: 'string', example } });

/** Headers on every answer of a deprecated operation (http/deprecation.ts); `required` is false on a 400. */
const deprecationHeaders = (required: boolean) => ({
  Deprecation: header('When the operation became deprecated, as `@<Unix time>` (RFC 9745).', '@1767225600', required),
  Sunset: header('When the operation will be removed (RFC 8594).', 'Thu, 05 Dec 2030 00:00:00 GMT', required),
  Link: header('The operation that replaces it, with `rel="successor-version"`.', '</v1/pets>; rel="successor-version"', required),
});
/** On every answer (not `required`: a balancer's own error pages lack it). */
const REQUEST_ID = {
  'X-Request-Id': header(
    'The request id: the `X-Request-Id` sent (1 to 128 of `A-Z a-z 0-9 . _ -`), else a new UUID.',
    '7f3c1b2a-6d4e-4f1a-9b2c-3e5d7a9c1f20',
  ),
};
/** The limiter's fields (draft-ietf-httpapi-ratelimit-headers) on an answer after the key is accepted, unless the limit is off. */
const RATE_LIMIT = {
  'RateLimit-Policy': header('The quota: requests (`q`) per window of seconds (`w`).', '"default";q=1200;w=60'),
  RateLimit: header('What is left of it (`r`) and the seconds until the window ends (`t`).', '"default";r=1199;t=60'),
};

/** Builds the OpenAPI document from the code; paths are relative to servers that end in `/v1`. */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Pet Store API')
    .setDescription(DESCRIPTION)
    .setVersion(API_VERSION)
    // Relative to where the document is served, so it names this instance whatever its host and port.
    .addServer('/v1', 'This instance')
    .addServer(config.openApi.publicBaseUrl, 'Production')
    .addServer(config.openApi.stagingBaseUrl, 'Staging')
    .addTag('pets', 'The animals of the store')
    .addTag('store', 'Store operations')
    .addTag('operations', 'Health checks for orchestrators and load balancers, outside /v1')
    // Not addBearerAuth(): it adds `bearerFormat: JWT`, and the keys are opaque strings.
    .addSecurity('apiKey', { type: 'http', scheme: 'bearer', description: 'An API key, sent as `Authorization: Bearer <API key>`.' })
    .build();
  builder.info.license = { name: 'UNLICENSED' }; // setLicense() would add an empty url
  const document = SwaggerModule.createDocument(app, builder, { ignoreGlobalPrefix: true });
  // Operational endpoints live outside /v1, so they name their own server; they need no key.
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/health/')) continue;
    item.servers = [{ url: '/', description: 'This instance (outside /v1)' }];
    if (item.get) item.get.security = [];
  }
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...contractSchemas() } };
  for (const operation of Object.values(document.paths).flatMap(({ get, post, put, patch, delete: del }) => [get, post, put, patch, del])) {
    const keyed = (operation?.security ?? []).length > 0;
    for (const [status, response] of Object.entries(operation?.responses ?? {})) {
      if (!response || !('description' in response)) continue;
      // The router refuses a path that is not a valid URL (`/pets/%ZZ`) with a 400 that has no deprecation headers.
      const deprecation = operation?.deprecated && deprecationHeaders(status !== '400');
      response.headers = { ...response.headers, ...deprecation, ...(keyed && status !== '401' && RATE_LIMIT), ...REQUEST_ID };
    }
  }
  return document;
}

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access -- Swagger UI's plugins are untyped browser code */
/** A Swagger UI plugin (it runs in the browser): operations marked `x-stability: experimental` offer no "Try it out". */
const noTryItOutForExperimental = () => ({
  statePlugins: {
    spec: {
      wrapSelectors: {
        allowTryItOutFor: (original: (path: string, method: string) => boolean, system: any) => (_state: unknown, path: string, method: string) =>
          system.specSelectors.specJson().getIn(['paths', path, method, 'x-stability']) !== 'experimental' && original(path, method),
      },
    },
  },
});
/** Swagger UI's own DownloadUrl plugin, which setting `plugins` would otherwise drop. */
const downloadUrl = (system: unknown): unknown => (globalThis as any).SwaggerUIBundle.plugins.DownloadUrl(system);
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access */

/** The files of swagger-ui-dist that the Swagger UI page loads; the rest of the package is not served. */
const UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', 'favicon-16x16.png'];

/** The paths a docs route stands for in the route table (which tells 404 from 405): the UI files, not the wildcard or LICENSE. */
export const routedPaths = (url: string): string[] =>
  url === '/docs/*' ? UI_FILES.map((file) => `/docs/${file}`) : url === '/docs/LICENSE' ? [] : [url];

/** The page, its script and the documents change only with a deploy: revalidated by a weak digest of the body. */
const revalidated: onSendHookHandler = (request, reply, payload, done) => {
  if (reply.statusCode !== 200 || typeof payload !== 'string') return done(null, payload);
  const etag = `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
  reply.header('etag', etag).header('cache-control', 'no-cache');
  // Weak comparison (RFC 9110 §13.1.2): `"x"` matches `W/"x"`; `*` matches any.
  const tags = request.headers['if-none-match']?.split(/\s*,\s*/) ?? [];
  if (!tags.some((tag) => tag === '*' || tag.replace(/^W\//, '') === etag.slice(2))) return done(null, payload);
  reply.code(304);
  // No body and so no `Content-Length: 0`; a HEAD route's own hook drops the body (it fails on none).
  done(null, request.method === 'HEAD' ? undefined : null);
};

/** Serves the document at /docs/openapi.json and /docs/openapi.yaml and Swagger UI at /docs, without a key, compressed. */
export async function setupSwagger(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  // Runs before @fastify/compress's own onRoute hook, which reads `compress`: the API's answers stay as they are.
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRoute', (route) => {
    if (!/^\/docs(\/|$)/.test(route.url)) return void (route.compress = false);
    // First: the HEAD route's own onSend hook drops the body.
    if (route.url !== '/docs/*') return void (route.onSend = [revalidated, ...[route.onSend ?? []].flat()]);
    const onlyUiFiles: onRequestHookHandler = (request, reply, done) =>
      UI_FILES.includes((request.params as { '*': string })['*']) ? done() : void reply.callNotFound();
    route.onRequest = [...[route.onRequest ?? []].flat(), onlyUiFiles];
  });
  await app.register(fastifyCompress, { globalDecompression: false });
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app, config), {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    customSiteTitle: 'Pet Store API',
    swaggerOptions: { plugins: [downloadUrl, noTryItOutForExperimental] },
  });
}
