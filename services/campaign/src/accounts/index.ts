// The accounts/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { createAccounts, ROLES } from './accounts.js';
export type { Accounts, Role } from './accounts.js';
export { createConsoleHandlers } from './grpc-handlers.js';
export type { ConsoleDeps } from './grpc-handlers.js';
export { createConsoleKeys } from './keys.js';
export { createConsolePurge } from './purge.js';
export { createConsoleSites } from './sites.js';
