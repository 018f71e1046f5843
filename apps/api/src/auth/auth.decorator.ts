import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { ApiForbiddenResponse } from '../docs/openapi.decorators';
import { ApiKeyScope } from './api-key';

export const IS_PUBLIC = 'petstore:isPublic';
export const REQUIRED_SCOPES = 'petstore:requiredScopes';

/** Marks a route as reachable without an API key. Every other route needs one. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** The scopes a key needs for this operation (ScopesGuard: 403 when one lacks), shown as `x-required-scopes` and in the 403. */
export function RequireScopes(...scopes: ApiKeyScope[]) {
  return applyDecorators(SetMetadata(REQUIRED_SCOPES, scopes), ApiExtension('x-required-scopes', scopes), ApiForbiddenResponse(scopes));
}
