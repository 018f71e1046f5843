/**
 * The version of this package, as in its package.json: `pnpm release` writes both (a spec checks that
 * they agree), so the package needs no file access to know it.
 */
export const CONTRACTS_VERSION = '1.1.0';

/**
 * The `info.version` of the API document: the contract's own version. It changes when the contract
 * does, not with the packages' releases (documenting a rule the service already enforced changes nothing).
 */
export const API_VERSION = '1.0.0';
