// This browser's push subscription for the settings page's test notification (docs/console.md,
// "Test notification"): the console's own service worker (console/public/sw.js, served at
// /console/sw.js, scope /console/) and a subscription made with the site's VAPID public key,
// which the page sends to the console API for one push.
import { messageOf } from './api';
import type { SubscriptionJson } from './types';

/** Why this browser cannot take part, or null when it can. */
export type PushUnsupported = 'insecure' | 'unsupported';

export function pushUnsupported(): PushUnsupported | null {
  if (!window.isSecureContext) return 'insecure';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return 'unsupported';
  return null;
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

/**
 * How long the browser's push service may take to take the subscription. Some never answer (a
 * browser that cannot reach its push service: its subscribe() never settles), and the page
 * waited forever (issue 34). The push itself is bounded by the delivery service (PUSH_TIMEOUT_MS).
 */
export const SUBSCRIBE_TIMEOUT_MS = 15_000;

export const SUBSCRIBE_TIMEOUT_MESSAGE =
  `This browser's push service did not answer within ${SUBSCRIBE_TIMEOUT_MS / 1000} s, so no test notification was sent. ` +
  'The browser may be offline or kept from its push service by this network: try again later, or in another browser.';

/** `work`'s outcome, or a rejection with `message` once `ms` have passed without one. */
export function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

export type TestPushState = { step: 'idle' | 'sending' | 'sent' | 'denied' | 'dismissed' } | { step: 'failed'; message: string };

/**
 * The settings page's test notification, step by step: permission (asked first, during the
 * click), this browser's subscription (given up after `timeoutMs`), then the console API's push.
 * Answers the state to show; never rejects.
 */
export async function sendTestNotification(
  io: { askPermission(): Promise<NotificationPermission>; subscribe(): Promise<SubscriptionJson>; send(subscription: SubscriptionJson): Promise<unknown> },
  timeoutMs = SUBSCRIBE_TIMEOUT_MS,
): Promise<TestPushState> {
  const permission = await io.askPermission().catch(() => 'denied' as const);
  if (permission !== 'granted') return { step: permission === 'denied' ? 'denied' : 'dismissed' };
  try {
    const subscribed = io.subscribe().catch((err: unknown) => {
      throw new Error(`This browser could not subscribe: ${messageOf(err)}`);
    });
    const subscription = await withDeadline(subscribed, timeoutMs, SUBSCRIBE_TIMEOUT_MESSAGE);
    await io.send(subscription);
    return { step: 'sent' };
  } catch (err) {
    return { step: 'failed', message: messageOf(err) };
  }
}
