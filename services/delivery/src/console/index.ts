// The console/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { createConsoleData } from './console-data.js';
export { createConsoleDataHandlers } from './grpc-handlers.js';
export { createTestPush } from './test-push.js';
export type { TestPush } from './test-push.js';
