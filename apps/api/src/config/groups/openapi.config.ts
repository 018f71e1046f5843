import { HTTP, Rule, hasProtocol } from '../rules';
import { Variable } from '../variable';

const withoutTrailingSlash = (raw: string) => raw.replace(/\/+$/, '');
const isVersionedUrl = (value: unknown) => hasProtocol(String(value), HTTP) && String(value).endsWith('/v1');
const RULE = 'must be an http(s) URL ending in /v1';

/** The servers the OpenAPI document names. */
export class OpenApiConfig {
  @Variable({
    name: 'PUBLIC_BASE_URL',
    parse: withoutTrailingSlash,
    description: 'the production server named in the OpenAPI document (an http(s) URL ending in `/v1`)',
  })
  @Rule(isVersionedUrl, RULE)
  publicBaseUrl = 'https://petstore.example.com/v1';

  @Variable({
    name: 'STAGING_BASE_URL',
    parse: withoutTrailingSlash,
    description: 'the staging server named in the OpenAPI document (an http(s) URL ending in `/v1`)',
  })
  @Rule(isVersionedUrl, RULE)
  stagingBaseUrl = 'https://staging.petstore.example.com/v1';
}
