import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { openApiSchemas } from '@petstore/contracts';
import { AppConfig } from '../config/config';

const DESCRIPTION = [
  'Keeps the records of the animals offered in the store: list them, add one, get one.',
  '',
  'Every operation needs an API key, sent as `Authorization: Bearer <API key>`.',
  'Every error answers with the Error body `{ code, message, status }`.',
].join('\n');

/** Builds the OpenAPI document from the code; paths are relative to servers that end in `/v1`. */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Pet Store API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    // Relative to where the document is served, so it names this instance whatever its host and port.
    .addServer('/v1', 'This instance')
    .addServer(config.publicBaseUrl, 'Production')
    .addServer(config.stagingBaseUrl, 'Staging')
    // bearerFormat is set because Nest would otherwise announce a JWT, which an API key is not.
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'An API key, sent as `Authorization: Bearer <API key>`.' },
      'apiKey',
    )
    .addTag('pets', 'The animals of the store')
    .addTag('store', 'Store operations')
    .build();
  const document = SwaggerModule.createDocument(app, builder, { ignoreGlobalPrefix: true });
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...openApiSchemas } };
  return document;
}

/** The part of Swagger UI's plugin system the plugin below reads. */
interface SwaggerUiSystem {
  specSelectors: { specJson(): { getIn(path: string[]): unknown } };
}

/**
 * Swagger UI plugin: operations marked `x-stability: experimental` get no "Try it out". It runs in the
 * browser (Nest writes its source into the page), so it must not use anything from this module.
 * `allowTryItOutFor` is the selector Swagger UI provides for exactly this.
 */
export function noTryItOutForExperimental() {
  return {
    statePlugins: {
      spec: {
        wrapSelectors: {
          allowTryItOutFor:
            (original: (...args: unknown[]) => boolean, system: SwaggerUiSystem) =>
            (state: unknown, path: string, method: string): boolean =>
              system.specSelectors.specJson().getIn(['paths', path, method, 'x-stability']) !== 'experimental' && original(state, path, method),
        },
      },
    },
  };
}

/** Swagger UI's own plugin for the top bar, kept because setting `plugins` replaces the default list. */
function downloadUrl(system: unknown) {
  const bundle = (globalThis as unknown as { SwaggerUIBundle: { plugins: { DownloadUrl(system: unknown): unknown } } }).SwaggerUIBundle;
  return bundle.plugins.DownloadUrl(system);
}

/** Serves the document at /docs/openapi.json and /docs/openapi.yaml and Swagger UI at /docs, without a key. */
export function setupSwagger(app: INestApplication, config: AppConfig): void {
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app, config), {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    customSiteTitle: 'Pet Store API',
    swaggerOptions: { plugins: [downloadUrl, noTryItOutForExperimental] },
  });
}
