// A person's external id (the site's own user id; docs/people.md): one rule for everywhere one is
// taken — the plugin's identify and /v2/users in the delivery service, a notification's
// `externalIds` in the campaign service. Each service words its own message.
export const MAX_EXTERNAL_ID_CHARS = 128;

// C0 and C1 controls (NUL included): an id is something a person or a log shows.
const CONTROL = /\p{Cc}/u;

/**
 * What is wrong with `value` as an external id: null when nothing (1 to 128 code points, no
 * control character, well-formed); 'characters' for an unpaired surrogate (the shared message
 * on bad characters); 'format' otherwise (not a string, empty, too long, a control character or NUL).
 */
export function externalIdFault(value: unknown): 'format' | 'characters' | null {
  if (typeof value !== 'string') return 'format';
  if (value.includes('\u0000')) return 'format';
  if (!value.isWellFormed()) return 'characters';
  const chars = [...value].length;
  if (chars < 1 || chars > MAX_EXTERNAL_ID_CHARS || CONTROL.test(value)) return 'format';
  return null;
}
