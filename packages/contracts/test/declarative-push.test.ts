// The Declarative Web Push message a campaign is sent as, checked against the Push API's
// "declarative push message" (w3c/push-api: the parser's members and their types; app_badge per
// w3c/push-api#402) and the Notifications API's "create a notification" checks the parsed
// notification must pass (renotify needs a tag; vibrate with silent is refused). A message that
// fails either is not declarative to the browser: it would reach the service worker as an
// ordinary push, or, with no worker, show nothing.
import { expect } from 'chai';
import fc from 'fast-check';
import {
  declarativePushPayloads,
  DEFAULT_NOTIFICATION_OPTIONS,
  type CampaignContent,
  type ClickUrl,
  type NotificationOptions,
} from '../src/campaign-content.js';

const isUrl = (v: unknown) => typeof v === 'string' && URL.canParse(v);
const isString = (v: unknown) => typeof v === 'string';
const isBool = (v: unknown) => typeof v === 'boolean';
const isUnsigned = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

/** The parser's steps, as problems; [] when a browser would show the message itself. */
function declarativeProblems(text: string): string[] {
  const problems: string[] = [];
  const message = JSON.parse(text);
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return ['not a JSON object'];
  for (const key of Object.keys(message)) if (!['web_push', 'notification', 'app_badge', 'mutable'].includes(key)) problems.push(`unknown member ${key}`);
  if (message.web_push !== 8030) problems.push('web_push is not 8030');
  if ('app_badge' in message && !isUnsigned(message.app_badge)) problems.push('app_badge');
  if ('mutable' in message && !isBool(message.mutable)) problems.push('mutable');
  const n = message.notification;
  if (n === null || typeof n !== 'object' || Array.isArray(n)) return [...problems, 'notification is not an object'];
  if (!isString(n.title)) problems.push('title');
  if (!isUrl(n.navigate)) problems.push('navigate is not a URL');
  for (const key of ['lang', 'body', 'tag']) if (key in n && !isString(n[key])) problems.push(key);
  for (const key of ['icon', 'image', 'badge']) if (key in n && !isUrl(n[key])) problems.push(key);
  if ('dir' in n && !['auto', 'ltr', 'rtl'].includes(n.dir)) problems.push('dir');
  for (const key of ['renotify', 'silent', 'requireInteraction']) if (key in n && !isBool(n[key])) problems.push(key);
  if ('timestamp' in n && !isUnsigned(n.timestamp)) problems.push('timestamp');
  if ('vibrate' in n && !(Array.isArray(n.vibrate) && n.vibrate.every(isUnsigned))) problems.push('vibrate');
  if ('actions' in n) {
    if (!Array.isArray(n.actions)) problems.push('actions');
    else for (const a of n.actions) if (!isString(a?.action) || !isString(a?.title) || !isUrl(a?.navigate)) problems.push('an action without action, title and navigate');
  }
  if (n.renotify === true && !n.tag) problems.push('renotify without a tag');
  if (n.silent === true && 'vibrate' in n) problems.push('vibrate with silent');
  return problems;
}

describe('Declarative Web Push message', () => {
  const campaignId = '0b7e4c1e-5d0a-4f7e-9b1a-2c3d4e5f6a7b';
  const clickUrl: ClickUrl = (token, button) => `https://push.example.net/public/v1/r/${token}${button === undefined ? '' : `?button=${button}`}`;
  const base: CampaignContent = {
    title: 'Final tonight', body: 'Kick-off at 8 pm', link: 'https://shop.example.org/final', utmSource: 'push', utmMedium: '', utmCampaign: '',
    icon: null, image: null, callToAction: '',
  };
  const build = (c: CampaignContent, token = 'tok') => declarativePushPayloads(campaignId, c, 1764936000000, clickUrl)(token);

  it('is the spec\'s JSON: web_push 8030, the notification with navigate = the click redirect, the campaign id as tag, mutable so a worker still counts the impression', () => {
    expect(JSON.parse(build(base))).to.deep.equal({
      web_push: 8030,
      notification: {
        title: 'Final tonight',
        tag: campaignId,
        body: 'Kick-off at 8 pm',
        timestamp: 1764936000000,
        navigate: 'https://push.example.net/public/v1/r/tok',
        data: { id: campaignId, token: 'tok' },
      },
      mutable: true,
    });
    expect(declarativeProblems(build(base))).to.deep.equal([]);
  });

  it('carries every option under the Notifications API\'s name, and each button navigates to its own redirect: callToAction to the campaign link, a button to its own', () => {
    const options: NotificationOptions = {
      actions: [{ title: 'Scores', link: 'https://shop.example.org/scores' }, { title: 'Never shown', link: 'https://shop.example.org/x' }],
      badge: 'https://shop.example.org/badge.png', requireInteraction: true, renotify: true, silent: false, vibrate: [200, 100],
      timestamp: '2026-12-05T10:00:00Z', dir: 'rtl', lang: 'pt-BR',
    };
    const message = JSON.parse(build({ ...base, icon: 'https://shop.example.org/i.png', image: 'https://shop.example.org/big.jpg', callToAction: 'Watch', options }));
    expect(message.notification).to.deep.include({
      icon: 'https://shop.example.org/i.png', image: 'https://shop.example.org/big.jpg', badge: 'https://shop.example.org/badge.png',
      dir: 'rtl', lang: 'pt-BR', requireInteraction: true, renotify: true, vibrate: [200, 100], timestamp: Date.parse('2026-12-05T10:00:00Z'),
    });
    // Two buttons in all, callToAction first: the service worker's names ('open', 'link-<i>').
    expect(message.notification.actions).to.deep.equal([
      { action: 'open', title: 'Watch', navigate: 'https://push.example.net/public/v1/r/tok' },
      { action: 'link-0', title: 'Scores', navigate: 'https://push.example.net/public/v1/r/tok?button=0' },
    ]);
    expect(declarativeProblems(JSON.stringify(message))).to.deep.equal([]);
  });

  it('leaves vibrate out of a silent notification (a browser refuses both, and the message would no longer be declarative), and the defaults out altogether', () => {
    const silent = JSON.parse(build({ ...base, options: { ...DEFAULT_NOTIFICATION_OPTIONS, silent: true, vibrate: [100] } }));
    expect(silent.notification).to.include({ silent: true }).and.not.have.property('vibrate');
    const plain = JSON.parse(build({ ...base, body: '', options: { ...DEFAULT_NOTIFICATION_OPTIONS } })).notification;
    for (const key of ['body', 'icon', 'image', 'badge', 'dir', 'lang', 'requireInteraction', 'renotify', 'silent', 'vibrate', 'actions']) expect(plain).to.not.have.property(key);
  });

  it('only the token differs from push to push, and hostile text stays inside its JSON strings', () => {
    const payloads = declarativePushPayloads(campaignId, base, 5, clickUrl);
    expect(payloads('a').replaceAll('"a"', '"T"').replaceAll('/r/a', '/r/T')).to.equal(payloads('b').replaceAll('"b"', '"T"').replaceAll('/r/b', '/r/T'));
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (title, body, cta) => {
        const text = build({ ...base, title, body, callToAction: cta, options: { ...DEFAULT_NOTIFICATION_OPTIONS, actions: [{ title: cta, link: 'https://x.example/"}' }] } });
        const message = JSON.parse(text);
        expect(message.notification.title).to.equal(title);
        expect(declarativeProblems(text)).to.deep.equal([]);
      }),
      { numRuns: 200 },
    );
  });
});
