// The audience/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { createAudience } from './audience.js';
export type { Audience } from './audience.js';
export { audienceDaily, countByBrowser, countByZone, siteActiveSubscribers } from './count-store.js';
export type { DayCount } from './count-store.js';
export { createSubscriberExport, exportSubscriptionsForMigration } from './export.js';
export type { SubscriberExport } from './export.js';
export { createAudienceHandlers } from './grpc-handlers.js';
export { VapidKeysInUseError, createSiteImport } from './import.js';
export type { ImportReport, SiteImport } from './import.js';
export { UNKNOWN_COUNTRY, countryCode, normalizeCountryName, normalizeTopic, sortedSet } from './names.js';
export { serviceHostRuleProblem, testHostProblem } from './push-endpoint.js';
export type { PushHostRules } from './push-endpoint.js';
export { segmentSql } from './segment-sql.js';
export { insertNewSubscribers } from './subscriber-store.js';
export type { NewSubscriberRow } from './subscriber-store.js';
export { MAX_ENDPOINT_CHARS, createSubscriptionInputRules } from './subscription-input.js';
export { createSubscriptions } from './subscriptions.js';
export type { Subscriptions } from './subscriptions.js';
export { TopicRefusal, createTopicMaintenance } from './topic-maintenance.js';
export type { TopicChange, TopicMaintenance } from './topic-maintenance.js';
export { zoneNamesMaintenance } from './zone-names.js';
