// The console/ feature's surface: what the rest of the gateway may import from it
// (docs/architecture.md, "House rules"). Everything else in the folder is the feature's own.
export { consoleApiRouter } from './api.js';
export { consolePageRoutes, loadConsolePages } from './pages.js';
export type { ConsolePages } from './pages.js';
export { consoleRoutes } from './routes.js';
