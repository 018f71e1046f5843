import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { PLAIN_SECURITY_HEADERS, TLS_SECURITY_HEADERS } from './security-headers';

/** What helmet's own middleware sets on a real response, with these options. */
function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, unknown> {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  helmet(options)(response.req, response, () => undefined);
  return response.getHeaders();
}

describe('security headers', () => {
  it('are helmet’s over plain HTTP: no HSTS, no upgrade-insecure-requests', () => {
    const plain = helmetHeaders({ strictTransportSecurity: false, contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
    expect(PLAIN_SECURITY_HEADERS).toEqual(plain);
  });

  it('are helmet’s defaults over TLS', () => {
    expect(TLS_SECURITY_HEADERS).toEqual(helmetHeaders({}));
  });
});
