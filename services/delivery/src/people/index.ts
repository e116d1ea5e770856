// The people/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { createIdentity, DEFAULT_IDENTITY_OVERLAP_HOURS, MAX_IDENTITY_OVERLAP_HOURS, externalIdProblem, IDENTITY_MESSAGES, MAX_EXTERNAL_ID_CHARS } from './identity.js';
export type { Identity } from './identity.js';
export { identitySignature, resealIdentitySecrets } from './identity-secret.js';
export { activeSubscriptionsOfPeople, tagTextsOfPeople, tagTextsOfSubscribers } from './people-store.js';
export type { PersonSubscription, TagTexts } from './people-store.js';
export { createPeople, MAX_PERSON_SENDS, PEOPLE_MESSAGES } from './people.js';
export type { People } from './people.js';
export { createPeopleHandlers } from './grpc-handlers.js';
export { createSignalPublisher, SIGNALS_INTERVAL_MS } from './signal-publisher.js';
export { MAX_TAGS_PER_PERSON, TAG_MESSAGES } from './tags.js';
export { createVisitorTags, VISITOR_TAG_MESSAGES } from './visitor-tags.js';
export type { VisitorTags } from './visitor-tags.js';
