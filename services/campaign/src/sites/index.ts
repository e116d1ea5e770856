// The sites/ feature's surface, what the rest of the service may import (docs/architecture.md,
// "House rules"): plans, sites and API keys (the operators' commands), a key authenticated, the
// delivery service's SiteRegistry client; the key rows the console's keys page changes, the default
// throttle its settings change.
export { authenticateUseCase } from './authenticate.js';
export { MAX_THROTTLE_PER_MINUTE, isSiteThrottle, OperatorConflictError, OperatorError, OperatorNotFoundError, PERMISSIONS, createOperators, newApiKey, toKey } from './operators.js';
export type { KeyInfo, Permission, Plan, Site, SiteRegistrar } from './operators.js';
export { RegistryRefusedError, RegistryUnavailableError, createSiteRegistryClient } from './site-registry-client.js';
export { insertKey, revokeActiveKeys, selectKey, selectKeys, selectSiteById, selectSiteThrottle, updateSiteThrottle } from './site-store.js';
