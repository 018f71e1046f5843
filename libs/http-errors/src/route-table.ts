import FindMyWay from 'find-my-way';

/** Longer than any path parameter can be: the request line is bounded by the 16 KiB of headers. */
export const MAX_PARAM_LENGTH = 16 * 1024;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** A second router with the server's routes, to tell "no such path" (404) from "known path, wrong method" (405). */
export class RouteTable {
  private readonly router = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH });

  add(method: string | string[], url: string): void {
    for (const upper of [method].flat().map((m) => m.toUpperCase())) {
      if ((METHODS as readonly string[]).includes(upper) && !this.router.hasRoute(upper as never, url)) {
        this.router.on(upper as never, url, () => undefined);
      }
    }
  }

  allowedMethods(path: string): string[] {
    const pathname = path.split('?')[0];
    return METHODS.filter((method) => {
      const found = this.router.find(method, pathname);
      // find-my-way matches an empty parameter (`/v1/pets/`); the server's router does not.
      return found !== null && Object.values(found.params).every((value) => value !== '');
    });
  }
}
