import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page, chromium } from 'playwright-core';
import { useTestApp } from '../support/test-app';
import { AUTH, TEST_API_KEY } from '../support/test-key';

/** Debian's Chromium (`apt-get install chromium`); .ci/run installs it when it is missing. */
const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOT = join(__dirname, '..', 'artifacts', 'swagger-ui.png');
const PLAIN_HOST = 'petstore.test';

const available = existsSync(CHROMIUM);
if (!available && !process.env.CI) {
  console.warn(`Swagger UI suite skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium). Under CI it runs and fails instead.`);
}

(available || process.env.CI ? describe : describe.skip)('Swagger UI in a browser (e2e)', () => {
  const api = useTestApp();
  let browser: Browser;
  let page: Page;

  const operation = (id: string) => page.locator(`#operations-${id}`);

  beforeAll(async () => {
    await api.sql.query('TRUNCATE pets RESTART IDENTITY');
    const created = await api.request('POST', '/v1/pets', { headers: AUTH, body: { name: 'Rex', categoryId: 3 } });
    expect(created.status).toBe(201);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // A name that is not loopback (browsers treat localhost and 127.0.0.1 as secure), resolved to the test's service.
        `--host-resolver-rules=MAP ${PLAIN_HOST} 127.0.0.1`,
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    await page.goto(`${api.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor();
  }, 60000);
  afterAll(async () => {
    await browser?.close();
  });

  it('lists the four operations and the two health checks, and shows getPet as deprecated', async () => {
    // Swagger UI names each block operations-<tag>-<operationId>.
    const ids = await page.locator('.opblock').evaluateAll((blocks) => blocks.map((b) => b.id).sort());
    expect(ids).toEqual([
      'operations-operations-live',
      'operations-operations-ready',
      'operations-pets-createPet',
      'operations-pets-getPet',
      'operations-pets-listPets',
      'operations-store-listOrders',
    ]);
    await expect(operation('pets-getPet').getAttribute('class')).resolves.toContain('opblock-deprecated');
    await expect(operation('pets-listPets').getAttribute('class')).resolves.not.toContain('opblock-deprecated');
  });

  it('offers no "Try it out" on the experimental listOrders, and offers it elsewhere', async () => {
    for (const id of ['store-listOrders', 'pets-createPet', 'pets-getPet']) {
      await operation(id).locator('.opblock-summary-control').click();
      // The body shows before its parameters; "Try it out" is rendered in their section's header, or never.
      await operation(id).locator('.opblock-section-header', { hasText: 'Parameters' }).waitFor();
    }
    await expect(operation('store-listOrders').locator('.try-out__btn').count()).resolves.toBe(0);
    await expect(operation('pets-createPet').locator('.try-out__btn').count()).resolves.toBe(1);
    await expect(operation('pets-getPet').locator('.try-out__btn').count()).resolves.toBe(1);
  });

  it('authorizes with a key, then "Try it out" and Execute on listPets show a 200 with the pets', async () => {
    await page.locator('.scheme-container .authorize').click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input').fill(TEST_API_KEY);
    await dialog.locator('button.authorize').click();
    await dialog.locator('button.btn-done').click();

    const listPets = operation('pets-listPets');
    await listPets.locator('.opblock-summary-control').click();
    await listPets.locator('.try-out__btn').click();
    await listPets.locator('button.execute').click();
    const live = listPets.locator('.live-responses-table');
    await live.locator('tbody .response-col_status').first().waitFor();
    await expect(live.locator('tbody .response-col_status').first().innerText()).resolves.toBe('200');
    const body = JSON.parse(await live.locator('tbody .response-col_description pre.microlight').first().innerText());
    expect(body).toEqual([{ id: 1, name: 'Rex', categoryId: 3, status: 'available' }]);
    await expect(listPets.locator('.request-url pre').innerText()).resolves.toBe(`${api.baseUrl}/v1/pets?limit=20`);

    // The picture: every operation listed, listPets open with its live answer.
    for (const id of ['store-listOrders', 'pets-createPet', 'pets-getPet']) await operation(id).locator('.opblock-summary-control').click();
    await listPets.locator('.try-out__btn').click(); // "Cancel": hides the parameter editors, keeps the answer
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it(`works over plain HTTP at a name other than loopback (${PLAIN_HOST}): every asset loads, none is sent to https`, async () => {
    const other = await browser.newPage();
    const failed: string[] = [];
    const requested: string[] = [];
    other.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
    other.on('request', (request) => requested.push(request.url()));
    try {
      const url = api.baseUrl.replace('127.0.0.1', PLAIN_HOST);
      // 'load' waits for every script and style sheet the page asked for, loaded or failed.
      const response = await other.goto(`${url}/docs`, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      expect(failed).toEqual([]);
      expect(requested.filter((r) => !r.startsWith(`${url}/`) && !r.startsWith('data:'))).toEqual([]);
      await other.locator('#operations-pets-listPets').waitFor();
    } finally {
      await other.close();
    }
  }, 60000);

  it('downloads under 50 KB on a second visit: the page, its script and the UI files come back as 304s', async () => {
    const context = await browser.newContext(); // a cache of its own, empty
    /** One visit to /docs: each answer from the service with its status on the wire and its bytes (headers included). */
    const visit = async () => {
      const visitor = await context.newPage();
      const cdp = await context.newCDPSession(visitor);
      // By request id: the events of one request may come in any order (ExtraInfo before requestWillBeSent).
      const answers = new Map<string, { path?: string; status?: number; bytes?: number }>();
      const answer = (id: string) => answers.get(id) ?? answers.set(id, {}).get(id)!;
      cdp.on('Network.requestWillBeSent', ({ requestId, request }) => void (answer(requestId).path = request.url));
      // The status the service sent (304), where responseReceived reports the cached answer's 200.
      cdp.on('Network.responseReceivedExtraInfo', ({ requestId, statusCode }) => void (answer(requestId).status = statusCode));
      cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => void (answer(requestId).bytes = encodedDataLength));
      await cdp.send('Network.enable');
      await visitor.goto(`${api.baseUrl}/docs`, { waitUntil: 'networkidle' });
      await visitor.locator('#operations-pets-listPets').waitFor();
      await visitor.close();
      const all = [...answers.values()]
        .filter((a) => a.path?.startsWith(`${api.baseUrl}/`))
        .map((a) => ({ ...a, path: a.path!.slice(api.baseUrl.length) }));
      return { bytes: all.reduce((sum, a) => sum + (a.bytes ?? 0), 0), statuses: Object.fromEntries(all.map((a) => [a.path, a.status])) };
    };
    try {
      const first = await visit();
      const second = await visit();
      const page = [
        '/docs',
        '/docs/swagger-ui-init.js',
        '/docs/swagger-ui.css',
        '/docs/swagger-ui-bundle.js',
        '/docs/swagger-ui-standalone-preset.js',
      ];
      expect(first.bytes).toBeGreaterThan(400_000); // the bundle, compressed: what a second visit saves
      expect(second.statuses).toMatchObject(Object.fromEntries(page.map((path) => [path, 304])));
      expect(second.bytes).toBeLessThan(50_000);
      console.log(
        `Swagger UI: first visit ${Object.keys(first.statuses).length} requests, ${first.bytes} bytes; second ${Object.keys(second.statuses).length}, ${second.bytes} bytes`,
      );
    } finally {
      await context.close();
    }
  }, 60000);
});
