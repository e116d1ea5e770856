// The sites/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { DEFAULT_SITE_ZONE, adoptVapidKeys, countSites, findSiteById, findSiteByPublicId, insertSiteIfAbsent, lockSitesAfter, setSiteFrequencyCap, setSiteQuietHours, setSiteTimeZone, siteQuietHours, siteTimeZone, updateVapidPrivateKeys } from './site-store.js';
export { VapidKeyDecryptError, encryptVapidPrivateKey, generateVapidKeyPair, keyRing, openVapidPrivateKey, vapidKeyPairProblem } from './vapid-keys.js';
export type { VapidEncryptionKeys, VapidKeyPair } from './vapid-keys.js';
export { vapidSigners } from './vapid-signers.js';
export type { VapidSigners } from './vapid-signers.js';
export { MAX_CAP_CAMPAIGNS, MAX_CAP_HOURS, capRefusals, quietHoursRefusals, storedZone } from './sending-settings.js';
export type { FrequencyCap } from './sending-settings.js';
