// What a browser exposes of a shown notification's options, read in the page through
// registration.getNotifications(): the same function for Chromium (Playwright) and Firefox
// (Puppeteer), passed to page.evaluate, so both suites record the options alike. An attribute the
// browser's Notification does not have reads 'absent'; the worker's per-button links (data.links)
// are read too.

export interface ShownOptions {
  actions: { action: string; title: string }[] | 'absent';
  badge: unknown;
  requireInteraction: unknown;
  renotify: unknown;
  silent: unknown;
  vibrate: number[] | 'absent';
  timestamp: unknown;
  dir: unknown;
  lang: unknown;
  links: Record<string, string> | null;
}

/**
 * Runs in the page: the options of the notifications shown with this tag. Self-contained (it is
 * serialised), with no named function inside (tsx would wrap one in a helper the page lacks).
 */
export async function readShownOptions(tag: string): Promise<ShownOptions[]> {
  const reg = await (globalThis as any).navigator.serviceWorker.getRegistration('/');
  const shown: any[] = reg ? await reg.getNotifications({ tag }) : [];
  const proto = (globalThis as any).Notification.prototype;
  return shown.map((n) => ({
    actions: 'actions' in proto ? n.actions.map((a: any) => ({ action: a.action, title: a.title })) : 'absent',
    badge: 'badge' in proto ? n.badge : 'absent',
    requireInteraction: 'requireInteraction' in proto ? n.requireInteraction : 'absent',
    renotify: 'renotify' in proto ? n.renotify : 'absent',
    silent: 'silent' in proto ? n.silent : 'absent',
    vibrate: 'vibrate' in proto ? Array.from(n.vibrate as number[]) : 'absent',
    timestamp: 'timestamp' in proto ? n.timestamp : 'absent',
    dir: 'dir' in proto ? n.dir : 'absent',
    lang: 'lang' in proto ? n.lang : 'absent',
    links: n.data?.links ?? null,
  }));
}

/**
 * Every notification option with urgency high: the create fields both browser suites send, so
 * each records what its browser shows of the same campaign (`origin`: the test site's).
 */
export function everyOption(origin: string): Record<string, unknown> {
  return {
    callToAction: 'Watch',
    actions: [{ title: 'Scores', link: origin + '/landing?from=scores' }],
    badge: 'https://127.0.0.1:9/badge.png',
    requireInteraction: true,
    renotify: true,
    vibrate: [200, 100, 200],
    timestamp: '2026-12-05T10:00:00Z',
    dir: 'rtl',
    lang: 'pt-BR',
    urgency: 'high',
    utmSource: 'push',
  };
}
