import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

/** The files of swagger-ui-dist that the Swagger UI page loads; the rest of the package is not served. */
const UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

interface Answer {
  type: string;
  body: Buffer;
}

/**
 * Serves everything under `prefix` (Swagger UI, the documents) as Buffers built once. A string answer is
 * copied into each answer as it is written, so 50 pipelined requests for the document on each of 1,000
 * connections that never read held 50,000 copies and aborted the heap; a shared Buffer is not copied.
 * Must be installed before the routes exist: it rewrites them as they are added. The page's files are
 * read from swagger-ui-dist at start; anything else under the prefix is 404.
 */
export function serveDocumentsOnce(fastify: FastifyInstance, prefix: string): void {
  const files = uiFiles();
  fastify.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${prefix}/`) && route.url !== prefix) return;
    if (route.url === `${prefix}/*`) route.handler = (request, reply) => serveUiFile(files, request, reply);
    else memoize(route);
  });
}

function uiFiles(): Map<string, Answer> {
  const nestSwagger = dirname(require.resolve('@nestjs/swagger'));
  const root = dirname(require.resolve('swagger-ui-dist/package.json', { paths: [nestSwagger] }));
  return new Map(Object.entries(UI_FILES).map(([file, type]) => [file, { type, body: readFileSync(join(root, file)) }]));
}

function serveUiFile(files: Map<string, Answer>, request: FastifyRequest, reply: FastifyReply): void {
  const file = files.get((request.params as { '*': string })['*']);
  if (!file) return void reply.callNotFound();
  void reply.type(file.type).send(file.body);
}

/** The route's first answer to a GET is kept as a Buffer and sent from then on; the handler no longer runs. */
function memoize(route: RouteOptions): void {
  const handler = route.handler;
  let kept: Answer | undefined;
  route.handler = function (this: FastifyInstance, request, reply) {
    if (kept) return reply.type(kept.type).send(kept.body);
    return handler.call(this, request, reply);
  };
  const keep = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    if (kept || request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return done(null, payload);
    kept = { type: String(reply.getHeader('content-type')), body: Buffer.from(payload) };
    done(null, kept.body);
  };
  route.onSend = [...(route.onSend ? [route.onSend].flat() : []), keep];
}
