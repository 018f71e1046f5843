export interface Outcome {
  /** ms since the load started. */
  start: number;
  end: number;
  status: number;
  body: any;
  headers: Headers;
  request: LoadRequest;
}

export interface LoadRequest {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface LoadOptions {
  baseUrl: string;
  headers: Record<string, string>;
  concurrency: number;
  /** Builds the i-th request of one client. */
  next(client: number, i: number): LoadRequest;
  /** The load stops when this resolves (or after `count` requests per client). */
  until?: Promise<unknown>;
  count?: number;
  /** Called with each outcome as it is recorded (a scenario waiting for answers, not for time). */
  onOutcome?(outcome: Outcome): void;
}

/** A bounded loop of requests from concurrent clients; a network failure is recorded as status 0. */
export async function runLoad(options: LoadOptions): Promise<{ t0: number; outcomes: Outcome[] }> {
  const t0 = performance.now();
  const outcomes: Outcome[] = [];
  let stopped = false;
  void options.until?.then(() => (stopped = true));
  const record = (outcome: Outcome) => {
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  };
  const client = async (c: number) => {
    for (let i = 0; !stopped && (options.count === undefined || i < options.count); i++) {
      const request = options.next(c, i);
      const start = performance.now() - t0;
      const headers: Record<string, string> = { ...options.headers, ...request.headers };
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      try {
        const response = await fetch(options.baseUrl + request.path, {
          method: request.method,
          headers,
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          signal: AbortSignal.timeout(15000),
        });
        const text = await response.text();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        record({ start, end: performance.now() - t0, status: response.status, body, headers: response.headers, request });
      } catch (error) {
        record({ start, end: performance.now() - t0, status: 0, body: String(error), headers: new Headers(), request });
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, c) => client(c)));
  return { t0, outcomes };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
