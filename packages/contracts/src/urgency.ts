// A campaign's RFC 8030 Urgency (an addition of 2026-12-05: docs/api-decisions.md, "Notification
// options"): how soon the push service should deliver its pushes to a device saving its battery.
// The campaign service validates it, the dispatch message carries it, the delivery service sends
// it as the `Urgency` header of every push of the campaign.

/** RFC 8030 §5.3's values, lowest first. */
export const URGENCIES = ['very-low', 'low', 'normal', 'high'] as const;
export type Urgency = (typeof URGENCIES)[number];

/** A campaign's urgency when it sets none (and every campaign's before 2026-12-05). */
export const DEFAULT_URGENCY: Urgency = 'normal';
