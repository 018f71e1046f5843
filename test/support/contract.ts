import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

interface Operation {
  responses: Record<
    string,
    {
      headers?: Record<string, { required?: boolean }>;
      content?: Record<string, { schema?: unknown; examples?: Record<string, { value?: { code?: string } }> }>;
    }
  >;
}
export interface OpenApiDocument {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation> & { servers?: { url: string }[] }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Checks answers of the service against its OpenAPI document: the status is documented for the
 * operation, the headers it marks required are sent, a documented body is `application/json` and
 * matches its schema, and an error's code is one of those the operation's examples show. A request that
 * matches no documented operation may only be refused as an unknown route (404) or method (405),
 * with the Error body: the document states that rule once instead of for every path.
 */
export class ContractChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: { method: string; pattern: RegExp; pointer: string; operation: Operation }[] = [];

  constructor(document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema(document, 'openapi');
    for (const [path, item] of Object.entries(document.paths)) {
      // Paths are relative to the first server: the running instance (`/v1`), unless the path has its own.
      const prefix = new URL((item.servers ?? document.servers ?? [{ url: '/' }])[0].url, 'http://x').pathname.replace(/\/$/, '');
      const pattern = new RegExp(`^${escape(prefix + path).replace(/\\\{[^}]+\\\}/g, '[^/]+')}$`);
      for (const method of METHODS.filter((m) => item[m])) {
        const pointer = `#/paths/${encodeURIComponent(path.replace(/~/g, '~0').replace(/\//g, '~1'))}/${method}`;
        this.routes.push({ method, pattern, pointer, operation: item[method] });
      }
    }
  }

  /** What breaks the contract in this answer, or undefined when nothing does. */
  problem(
    method: string,
    url: string,
    status: number,
    contentType: string | null,
    body: unknown,
    text: string,
    headers?: Headers,
  ): string | undefined {
    const path = new URL(url, 'http://x').pathname;
    // The documents themselves (Swagger UI, the OpenAPI JSON and YAML) are not operations of the API.
    if (path === '/docs' || path.startsWith('/docs/')) return undefined;
    // HEAD is served for every GET route: the GET operation's statuses, without a body.
    const head = method.toUpperCase() === 'HEAD';
    const route = this.routes.find((r) => r.method === (head ? 'get' : method.toLowerCase()) && r.pattern.test(path));
    if (!route) {
      if (status !== 404 && status !== 405) {
        return `${method} ${path} is no documented operation, yet it answered ${status}: document it, or opt out with { contract: false } if it is outside the API on purpose`;
      }
      return head ? undefined : this.bodyProblem('#/components/schemas/Error', status, contentType, body, text);
    }
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => route.operation.responses[k]);
    if (!key) return `status ${status} is not documented for ${method} ${path}`;
    const response = route.operation.responses[key];
    const missing = Object.entries(response.headers ?? {}).filter(([name, header]) => header.required && headers && !headers.has(name));
    if (missing.length > 0) return `${method} ${path} ${status} lacks the required header(s) ${missing.map(([name]) => name).join(', ')}`;
    if (head) return undefined;
    const content = response.content;
    if (!content) return text === '' ? undefined : `${method} ${path} ${status} has a body the document does not describe`;
    if (!content['application/json']) return `${method} ${path} ${status} is documented without an application/json body`;
    const codes = Object.values(content['application/json'].examples ?? {}).map((example) => example.value?.code);
    const code = (body as { code?: string } | undefined)?.code;
    if (status >= 400 && codes.length > 0 && !codes.includes(code)) {
      return `${method} ${path} ${status} answered code ${code}, which its examples do not show (${codes.join(', ')})`;
    }
    return this.bodyProblem(`${route.pointer}/responses/${key}/content/application~1json/schema`, status, contentType, body, text);
  }

  private bodyProblem(pointer: string, status: number, contentType: string | null, body: unknown, text: string): string | undefined {
    if (!contentType?.startsWith('application/json')) return `content-type is ${contentType}, not application/json`;
    if (body === undefined) return `the body is not JSON: ${text.slice(0, 200)}`;
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi${pointer}` });
      this.validators.set(pointer, validate);
    }
    if (!validate(body)) return `the body does not match ${pointer}: ${this.ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`;
    const bodyStatus = (body as { status?: unknown }).status;
    if (status >= 400 && bodyStatus !== status) return `the Error body says status ${String(bodyStatus)}, the answer is ${status}`;
    return undefined;
  }
}
