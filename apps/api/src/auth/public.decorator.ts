import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'petstore:isPublic';

/** Marks a route as reachable without an API key. Every other route needs one. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
