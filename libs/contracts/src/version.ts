/** This package's version, as in its package.json (`pnpm release` writes both; a spec checks they agree). */
export const CONTRACTS_VERSION = '1.1.0';

/** The document's `info.version`: the contract's own version, changed when the contract is, not with releases. */
export const API_VERSION = '1.0.0';
