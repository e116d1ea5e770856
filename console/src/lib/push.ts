// This browser's push subscription for the settings page's test notification (docs/console.md,
// "Test notification"): the console's own service worker (console/public/sw.js, served at
// /console/sw.js, scope /console/) and a subscription made with the site's VAPID public key,
// which the page sends to the console API for one push.

/** Why this browser cannot take part, or null when it can. */
export type PushUnsupported = 'insecure' | 'unsupported';

export function pushUnsupported(): PushUnsupported | null {
  if (!window.isSecureContext) return 'insecure';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return 'unsupported';
  return null;
}

/** A PushSubscription as its toJSON() gives it: what the console API takes. */
export interface SubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * The browser's answer to "show notifications?". Call it from the click itself, before anything
 * is awaited: browsers ask only on a user's gesture.
 */
export function askPermission(): Promise<NotificationPermission> {
  if (Notification.permission !== 'default') return Promise.resolve(Notification.permission);
  return Notification.requestPermission();
}

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '='));
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/**
 * This browser's subscription for the site's VAPID key, through the console's service worker:
 * the one it has when it was made with that key, else a new one (a subscription made for another
 * site's key is dropped first: a browser keeps one per service worker).
 */
export async function subscribeThisBrowser(vapidPublicKey: string): Promise<SubscriptionJson> {
  // Relative to the page (/console/): /console/sw.js, scope /console/.
  await navigator.serviceWorker.register('sw.js', { scope: './' });
  const registration = await navigator.serviceWorker.ready;
  const key = base64UrlBytes(vapidPublicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameBytes(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const json = subscription.toJSON();
  return { endpoint: json.endpoint ?? '', keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } };
}
