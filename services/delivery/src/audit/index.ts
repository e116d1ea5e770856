// The audit/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { createAuditLog, purgeAuditLog } from './audit-log.js';
export type { AuditLog } from './audit-log.js';
export { createAuditLogHandlers } from './grpc-handlers.js';
