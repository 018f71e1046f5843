/**
 * The version of this package, as in its package.json: `pnpm release` writes both (a spec checks that
 * they agree), so the package needs no file access to know it.
 */
export const CONTRACTS_VERSION = '1.1.0';

/**
 * The `info.version` of the API document: the contracts' major.minor, as `major.minor.0`. A patch
 * release of the packages changes no API, so it leaves the document's version alone.
 */
export const API_VERSION = CONTRACTS_VERSION.replace(/^(\d+)\.(\d+)\..*$/, '$1.$2.0');
