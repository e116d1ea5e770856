export * from './audience.js';
export * from './sites.js';
export * from './subscribers.js';
