// The site snippet's calls to the server, run as a page runs the file (vm, a window-like global
// with the few DOM and push APIs the snippet touches): a call that meets a network error, a 5xx
// or a 429 is made again, a bounded number of times, and one the server refused (4xx) is not;
// the opt-in funnel's reports (each event once per prompt and page view, the prompt named in the
// subscribe and unsubscribe calls, the browser's denial reported).
// The browser suites run the same file for real in Chromium and Firefox.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { expect } from 'chai';

const SNIPPET = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/plugin/assets/webpush.js'), 'utf8');
const API = 'https://gateway.example/public/v1/';
const CONFIG = { vapidPublicKey: 'BAAA' };

type Answer = number | 'network error';

interface Page {
  calls: { method: string; url: string; body?: any }[];
  waits: number[];
  /** The states the snippet announced, in order. */
  states: string[];
  webpush: { state: string; subscribe(): Promise<string>; unsubscribe(): Promise<string>; reportOptIn(event: string, promptId?: unknown): Promise<boolean> } & ((command: string, ...args: unknown[]) => Promise<unknown>);
  /** The `webpush:identity` announcements, in order. */
  identities: unknown[];
  /** Settles once the snippet's start-up calls are done. */
  settled(): Promise<void>;
}

/**
 * Loads the snippet on a page whose visitor has given `permission`, with a fetch that gives each
 * path's answers in turn (the last one repeated); a visitor who allowed notifications already
 * holds a push subscription.
 */
function load(permission: NotificationPermission, answers: Record<string, Answer[]>, queued: unknown[][] = [], asked: NotificationPermission = 'granted'): Page {
  const calls: Page['calls'] = [];
  const identities: unknown[] = [];
  const waits: number[] = [];
  const states: string[] = [];
  const pending = new Set<Promise<unknown>>();
  const subscription = { endpoint: 'https://push.example/1', toJSON: () => ({ endpoint: 'https://push.example/1', keys: { p256dh: 'p', auth: 'a' } }), unsubscribe: async () => true };
  let subscribed = permission === 'granted';
  const registration = {
    active: {},
    pushManager: {
      getSubscription: async () => (subscribed ? subscription : null),
      subscribe: async () => {
        subscribed = true;
        return subscription;
      },
    },
  };
  const fetch = (url: string, init: { method: string; body?: string }) => {
    const key = `${init.method} ${url.slice(API.length)}`;
    calls.push({ method: init.method, url: url.slice(API.length), body: init.body === undefined ? undefined : JSON.parse(init.body) });
    const list = answers[key] ?? [404];
    const answer = list[Math.min(calls.filter((c) => `${c.method} ${c.url}` === key).length, list.length) - 1];
    const done =
      answer === 'network error'
        ? Promise.reject(new TypeError('Failed to fetch'))
        : Promise.resolve({
            status: answer,
            ok: answer >= 200 && answer < 300,
            headers: new Headers(answer === 429 ? { 'Retry-After': '7' } : {}),
            json: async () =>
              answer >= 400
                ? { message: `refused ${answer}` }
                : key.endsWith('/config')
                  ? CONFIG
                  : key.endsWith('/pageviews')
                    ? { updated: true }
                    : key === 'POST sites/pub_x/identity'
                      ? { identified: true }
                      : key === 'DELETE sites/pub_x/identity'
                        ? { unlinked: true }
                        : key === 'POST sites/pub_x/tags'
                          ? { tagged: true }
                          : {},
          });
    pending.add(done.catch(() => {}));
    return done;
  };
  const document = {
    currentScript: { src: `${API}webpush.js`, getAttribute: (name: string) => ({ 'data-site': 'pub_x', 'data-button': 'none' })[name] ?? null },
    readyState: 'complete',
    querySelectorAll: () => [],
    dispatchEvent: (event: { type: string; detail: { state: string } }) =>
      event.type === 'webpush:identity' ? identities.push(event.detail) : states.push(event.detail.state),
    addEventListener: () => {},
  };
  const window: Record<string, unknown> = {
    document,
    navigator: { serviceWorker: { register: async () => registration }, language: 'en-US' },
    Notification: { permission, requestPermission: async () => asked },
    PushManager: function PushManager() {},
    isSecureContext: true,
    fetch,
    URL,
    Promise,
    JSON,
    Number,
    Math,
    String,
    Uint8Array,
    Intl,
    atob,
    encodeURIComponent,
    CustomEvent: class {
      constructor(
        public type: string,
        public init: { detail: unknown },
      ) {}
      get detail() {
        return this.init.detail;
      }
    },
    // Backoff waits (at most 8 s) pass at once and are recorded.
    setTimeout: (fn: () => void, ms: number) => {
      waits.push(ms);
      queueMicrotask(fn);
      return 0;
    },
  };
  window.window = window;
  // The page's queue stub (docs/people.md), with what it was asked before the script loaded.
  if (queued.length > 0) window.webpush = Object.assign(() => {}, { q: queued });
  const context = vm.createContext(window);
  vm.runInContext(SNIPPET, context, { filename: 'webpush.js' });
  const webpush = window.webpush as Page['webpush'];
  async function settled() {
    // Every answer leads to at most a few more calls; 50 rounds is far more than any flow here needs.
    for (let round = 0; round < 50; round++) {
      const before = calls.length;
      await Promise.all([...pending]);
      await new Promise((resolve) => setImmediate(resolve));
      if (calls.length === before) return;
    }
    throw new Error('the snippet kept calling');
  }
  return { calls, waits, states, identities, webpush, settled };
}

describe('plugin: the site snippet\'s calls', () => {
  it('when a returning visitor\'s page view meets a network error, then a 503, then it is sent again until stored', async () => {
    const page = load('granted', { 'POST sites/pub_x/pageviews': ['network error', 503, 200] });
    await page.settled();
    // The site's configuration is read on every page (it says whether the site shows an opt-in prompt).
    expect(page.calls.map((c) => `${c.method} ${c.url}`)).to.deep.equal(['GET sites/pub_x/config', ...Array(3).fill('POST sites/pub_x/pageviews')]);
    expect(page.waits).to.deep.equal([1000, 4000]);
    expect(page.webpush.state).to.equal('subscribed');
  });

  it('when a new subscriber\'s subscribe meets a 502, then it is sent again, and the visitor ends subscribed', async () => {
    const page = load('default', { 'GET sites/pub_x/config': [200], 'POST sites/pub_x/subscriptions': [502, 201] });
    await page.settled();
    expect(await page.webpush.subscribe()).to.equal('subscribed');
    expect(page.calls.filter((c) => c.url.endsWith('subscriptions'))).to.have.length(2);
    expect(page.waits).to.deep.equal([1000]);
  });

  it('when every attempt fails, then it stops after three (bounded), honours Retry-After within its bound, and says so', async () => {
    const page = load('default', { 'GET sites/pub_x/config': [200], 'POST sites/pub_x/subscriptions': [429] });
    await page.settled();
    expect(await page.webpush.subscribe()).to.equal('error');
    expect(page.calls.filter((c) => c.url.endsWith('subscriptions'))).to.have.length(3);
    expect(page.waits).to.deep.equal([7000, 7000]);
  });

  it('when the server refuses a call (400), then it is made once, not again', async () => {
    const page = load('default', { 'GET sites/pub_x/config': [200], 'POST sites/pub_x/subscriptions': [400] });
    await page.settled();
    expect(await page.webpush.subscribe()).to.equal('error');
    expect(page.calls.filter((c) => c.url.endsWith('subscriptions'))).to.have.length(1);
    expect(page.waits).to.deep.equal([]);
  });

  it('when the page queued identify before the script loaded, then it is sent with this browser\'s endpoint once the page view confirmed the subscription, and logout unlinks it', async () => {
    const signature = 'ab'.repeat(32);
    const page = load('granted', { 'POST sites/pub_x/pageviews': [200], 'POST sites/pub_x/identity': [200], 'DELETE sites/pub_x/identity': [200] }, [['identify', 'user-123', signature]]);
    await page.settled();
    expect(page.calls.map((c) => `${c.method} ${c.url}`)).to.deep.equal(['GET sites/pub_x/config', 'POST sites/pub_x/pageviews', 'POST sites/pub_x/identity']);
    expect(page.calls[2].body).to.deep.equal({ endpoint: 'https://push.example/1', externalId: 'user-123', signature });
    expect(page.identities).to.deep.equal([{ externalId: 'user-123', identified: true }]);
    expect(await page.webpush('logout')).to.equal(true);
    expect(page.calls.at(-1)).to.deep.equal({ method: 'DELETE', url: 'sites/pub_x/identity', body: { endpoint: 'https://push.example/1' } });
  });

  it('when a visitor who has not subscribed is identified, then nothing is sent until they subscribe, then the identity follows the subscription', async () => {
    const page = load('default', { 'GET sites/pub_x/config': [200], 'POST sites/pub_x/subscriptions': [201], 'POST sites/pub_x/identity': [200] });
    await page.settled();
    expect(await page.webpush('identify', 'user-9', 'cd'.repeat(32))).to.equal(false);
    expect(page.calls.some((c) => c.url.endsWith('/identity'))).to.equal(false);
    expect(await page.webpush('subscribe')).to.equal('subscribed');
    await page.settled();
    expect(page.calls.map((c) => `${c.method} ${c.url}`).slice(-2)).to.deep.equal(['POST sites/pub_x/subscriptions', 'POST sites/pub_x/identity']);
  });

  it('when the server refuses the signature (403), then it is not sent again and the refusal is announced; an unknown command is refused', async () => {
    const page = load('granted', { 'POST sites/pub_x/pageviews': [200], 'POST sites/pub_x/identity': [403] });
    await page.settled();
    let refused: unknown = null;
    await page.webpush('identify', 'user-1', '00'.repeat(32)).catch((err: unknown) => (refused = err));
    expect(String(refused)).to.contain('refused 403');
    expect(page.calls.filter((c) => c.url.endsWith('/identity'))).to.have.length(1);
    expect(page.identities).to.deep.equal([{ externalId: 'user-1', error: 'refused 403' }]);
    expect(page.webpush.state, 'the subscription itself is untouched').to.equal('subscribed');
    let unknown: unknown = null;
    await page.webpush('explode').catch((err: unknown) => (unknown = err));
    expect(String(unknown)).to.contain('unknown command');
  });

  it('when the page queued identify and tags before the script loaded, then the tags follow the identity, in one call; a tag while subscribed is sent at once', async () => {
    const signature = 'ef'.repeat(32);
    const page = load('granted', { 'POST sites/pub_x/pageviews': [200], 'POST sites/pub_x/identity': [200], 'POST sites/pub_x/tags': [200] }, [
      ['tag', 'plan', 'gold'],
      ['identify', 'user-7', signature],
      ['tag', 'lang', null],
    ]);
    await page.settled();
    expect(page.calls.map((c) => `${c.method} ${c.url}`)).to.deep.equal(['GET sites/pub_x/config', 'POST sites/pub_x/pageviews', 'POST sites/pub_x/identity', 'POST sites/pub_x/tags']);
    expect(page.calls[3].body).to.deep.equal({ endpoint: 'https://push.example/1', tags: { plan: 'gold', lang: null } });
    expect(await page.webpush('tag', 'score', 3)).to.equal(true);
    expect(page.calls.at(-1)?.body).to.deep.equal({ endpoint: 'https://push.example/1', tags: { score: 3 } });
  });

  describe('opt-in funnel', () => {
    const EVENTS = 'POST sites/pub_x/optin-events';
    const reports = (page: Page) => page.calls.filter((c) => `${c.method} ${c.url}` === EVENTS).map((c) => c.body);

    it('when a prompt is shown, accepted and dismissed again and again on one page, then each event is reported once per prompt', async () => {
      const page = load('default', { 'GET sites/pub_x/config': [200], [EVENTS]: [200] });
      await page.settled();
      for (let i = 0; i < 3; i++) {
        await page.webpush.reportOptIn('shown', 'slide-down');
        await page.webpush.reportOptIn('dismissed', 'slide-down');
      }
      await page.webpush.reportOptIn('shown', 'bell');
      expect(reports(page)).to.deep.equal([
        { event: 'shown', promptId: 'slide-down' },
        { event: 'dismissed', promptId: 'slide-down' },
        { event: 'shown', promptId: 'bell' },
      ]);
    });

    it('when a prompt is accepted, then the subscribe call names it (the server counts subscribed), and subscribed itself is never reported', async () => {
      const page = load('default', { 'GET sites/pub_x/config': [200], [EVENTS]: [200], 'POST sites/pub_x/subscriptions': [201] });
      await page.settled();
      await page.webpush.reportOptIn('accepted', 'modal');
      expect(await page.webpush.subscribe()).to.equal('subscribed');
      await page.webpush.reportOptIn('subscribed', 'modal');
      expect(reports(page)).to.deep.equal([{ event: 'accepted', promptId: 'modal' }]);
      expect(page.calls.find((c) => c.url.endsWith('subscriptions'))!.body.promptId).to.equal('modal');
    });

    it('when the site\'s own button subscribes and the browser denies, then denied is reported for "site"', async () => {
      const page = load('default', { 'GET sites/pub_x/config': [200], [EVENTS]: [200] }, [], 'denied');
      await page.settled();
      expect(await page.webpush.subscribe()).to.equal('denied');
      await page.settled();
      expect(reports(page)).to.deep.equal([{ event: 'denied', promptId: 'site' }]);
    });

    it('when a visitor unsubscribes, then the DELETE names the prompt ("site" unless one was said)', async () => {
      const page = load('granted', { 'POST sites/pub_x/pageviews': [200], 'DELETE sites/pub_x/subscriptions': [200] });
      await page.settled();
      await page.webpush.unsubscribe();
      expect(page.calls.find((c) => c.method === 'DELETE')!.body).to.deep.equal({ endpoint: 'https://push.example/1', promptId: 'site' });
      // A returning visitor's refresh names no prompt: it is no opt-in.
      expect(page.calls.filter((c) => c.url.endsWith('subscriptions') && c.method === 'POST')).to.have.length(0);
    });

    it('when an event or prompt id is not one, then nothing goes out for an unknown event and a bad id is taken as "site"', async () => {
      const page = load('default', { 'GET sites/pub_x/config': [200], [EVENTS]: [200] });
      await page.settled();
      expect(await page.webpush.reportOptIn('clicked', 'x')).to.equal(false);
      await page.webpush.reportOptIn('shown', 'a b'.repeat(40));
      expect(reports(page)).to.deep.equal([{ event: 'shown', promptId: 'site' }]);
    });
  });
});
