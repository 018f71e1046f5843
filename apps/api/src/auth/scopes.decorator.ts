import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { ApiForbiddenResponse } from '../docs/openapi.decorators';
import { ApiKeyScope } from './api-key';

export const REQUIRED_SCOPES = 'petstore:requiredScopes';

/**
 * The scopes a key needs for this operation (checked by the global guard, 403 `forbidden` when one is
 * missing), shown in the document as `x-required-scopes` and in the 403 response.
 */
export function RequireScopes(...scopes: ApiKeyScope[]) {
  return applyDecorators(SetMetadata(REQUIRED_SCOPES, scopes), ApiExtension('x-required-scopes', scopes), ApiForbiddenResponse(scopes));
}
