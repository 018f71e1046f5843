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
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key, sent as `Authorization: Bearer <API key>`.' }, 'apiKey')
    .addTag('pets', 'The animals of the store')
    .addTag('store', 'Store operations')
    .build();
  const document = SwaggerModule.createDocument(app, builder, { ignoreGlobalPrefix: true });
  // Operational endpoints live outside /v1, so they name their own server.
  for (const [path, item] of Object.entries(document.paths)) {
    if (path.startsWith('/health/')) item.servers = [{ url: '/', description: 'This instance (outside /v1)' }];
  }
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...openApiSchemas } };
  return document;
}

/** Serves the document at /docs/openapi.json and /docs/openapi.yaml and Swagger UI at /docs, without a key. */
export function setupSwagger(app: INestApplication, config: AppConfig): void {
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app, config), {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    customSiteTitle: 'Pet Store API',
  });
}
