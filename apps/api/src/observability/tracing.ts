import { SpanKind, SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { redactKeys } from '../auth/redact-keys';
import { routeLabel } from './route-label';

/**
 * Whether traces are on in this process: set once by tracing.setup, before the app's modules load.
 * Every hook below is skipped while it is false, so traces off cost one branch per statement.
 */
export const tracing = { enabled: false, flush: (): Promise<void> => Promise.resolve() };

export type TracedRequest = FastifyRequest & { traceId?: string };

const tracer = trace.getTracer('petstore-api');

/** What a span says of a statement (the database layer's `Statement`, declared here so that neither imports the other). */
interface TracedStatement {
  readonly name: string;
  readonly text: string;
}
const queryTexts = new WeakMap<TracedStatement, string>();

/**
 * The HTTP instrumentation opens the request's span before Fastify routes it. Once the route is known,
 * this names the span after its template (`GET /v1/pets/{petId}`, through the instrumentation's route
 * metadata) and keeps the trace id for the request's log line. Spans are flushed when the server closes.
 */
export function installTracing(fastify: FastifyInstance): void {
  if (!tracing.enabled) return;
  // Loaded only with traces on, as the SDK is (tracing.setup): 1.3 MB of heap otherwise.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand
  const { RPCType, getRPCMetadata } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  fastify.addHook('onRequest', (request, _reply, done) => {
    const active = context.active();
    const template = request.routeOptions.url;
    const metadata = getRPCMetadata(active);
    if (template && metadata?.type === RPCType.HTTP) metadata.route = routeLabel(template);
    const spanContext = trace.getSpan(active)?.spanContext();
    if (spanContext && trace.isSpanContextValid(spanContext)) (request as TracedRequest).traceId = spanContext.traceId;
    done();
  });
  fastify.addHook('onClose', async () => tracing.flush());
}

/**
 * A child span of the request's for one statement: its name, and its parameterised text. The values
 * are never recorded (they carry what clients sent, key digests among them).
 */
export function startStatementSpan(statement: TracedStatement): Span {
  let text = queryTexts.get(statement);
  if (text === undefined) {
    text = statement.text.replace(/\s+/g, ' ').trim();
    queryTexts.set(statement, text);
  }
  return tracer.startSpan(statement.name, {
    kind: SpanKind.CLIENT,
    attributes: { 'db.system.name': 'postgresql', 'db.operation.name': text.split(' ', 1)[0].toUpperCase(), 'db.query.text': text },
  });
}

/** Only the SQLSTATE: a driver's message may quote a value the statement was given. */
export function endWithError(span: Span, error: unknown): void {
  const code = (error as { code?: unknown }).code;
  span.setAttribute('error.type', typeof code === 'string' ? code : 'error');
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

const MAX_PATH = 200;

/**
 * The attributes that replace the HTTP instrumentation's own for a request's URL: the query keeps its
 * parameter names but none of their values (a cursor, or a key a client put in `access_token`), and the
 * path is cut at 200 characters, as in the logs; anything shaped like a key is written `pet_…` (a client
 * may put one in the path or in a parameter's name).
 */
export function urlAttributes(url: string | undefined): Record<string, string> {
  if (url === undefined) return {};
  const question = url.indexOf('?');
  const path = redactKeys(question === -1 ? url : url.slice(0, question));
  const attributes: Record<string, string> = { 'url.path': path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path };
  if (question !== -1) {
    attributes['url.query'] = url
      .slice(question + 1)
      .split('&')
      .slice(0, 8)
      .map((pair) => `${redactKeys(pair.split('=', 1)[0]).slice(0, 64)}=REDACTED`)
      .join('&');
  }
  return attributes;
}
