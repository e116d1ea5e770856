// The plugin/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { pluginRoutes } from './routes.js';
export { optInPromptsOf } from './optin-prompts.js';
export { readOptInPrompts, writeOptInPrompts } from './optin-prompts-store.js';
export type { OptInPrompts } from './optin-prompts.js';
