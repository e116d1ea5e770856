// The click-tracking redirect's public URL (routes.ts serves it), which a Declarative Web Push
// message names as where a click goes: the browser opens it with no script of ours running.
import type { ClickUrl } from '@webpush/contracts/campaign-content.js';

/** The redirect path; `button` picks the campaign's own button (an index into `options.actions`). */
export const CLICK_PATH = '/public/v1/r/';

/** `publicUrl`: the origin the public reaches the gateway at (PUBLIC_URL), without a trailing slash. */
export function clickUrls(publicUrl: string): ClickUrl {
  const base = `${publicUrl}${CLICK_PATH}`;
  return (token, button) => (button === undefined ? `${base}${token}` : `${base}${token}?button=${button}`);
}
