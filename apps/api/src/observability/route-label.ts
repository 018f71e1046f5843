/** The route label of a request that matched no route: unknown paths must not each make a series. */
export const UNMATCHED = 'unmatched';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The label of a route as the OpenAPI document spells it (`/v1/pets/{petId}`), from Fastify's template
 * (`/v1/pets/:petId`); a request no route matched has no template and gets `unmatched`. Never built
 * from the request's own path, so ids and random paths cannot multiply the series.
 */
export function routeLabel(template: string | undefined): string {
  if (!template) return UNMATCHED;
  return template.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** A method outside the usual set (`PROPFIND`, `MKCOL`: Node's parser knows dozens) counts as `other`. */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'other';
}
