// The create's notification options and urgency (docs/api-decisions.md, "Notification options"):
// each field's rule and message, their defaults (a campaign at every default has no options), the
// buttons with callToAction, silent with vibrate, and the options counting towards the push's size.
import { expect } from 'chai';
import { validateCreateInput } from '../src/campaigns/create-input.js';
import { createMessagesFor as messagesFor, validCreateBody as valid } from './support/create-body.js';

const ACTIONS = 'actions must be an array of at most 2 buttons, each {"title", "link"}';
const VIBRATE = 'vibrate must be an array of at most 10 whole numbers of milliseconds from 0 to 10000';
const TIMESTAMP = 'timestamp must be a UTC date-time from 1970 on (e.g. 2025-01-01T12:00:00Z)';
const LANG = 'lang must be a BCP 47 language tag of at most 35 characters (e.g. pt-BR)';
const BAD = 'must not contain NUL characters or unpaired surrogates';

describe('create validation: notification options and urgency', () => {
  it('when none is given, or each is null or at its default, then the campaign has no options and urgency normal', () => {
    expect(validateCreateInput(valid())).to.deep.include({ options: null, urgency: 'normal' });
    const nulls = { actions: null, badge: null, requireInteraction: null, renotify: null, silent: null, vibrate: null, timestamp: null, dir: null, lang: null, urgency: null };
    expect(validateCreateInput(valid(nulls))).to.deep.include({ options: null, urgency: 'normal' });
    const defaults = { actions: [], badge: '', requireInteraction: false, renotify: false, silent: false, vibrate: [], dir: 'auto', lang: '', urgency: 'normal' };
    expect(validateCreateInput(valid(defaults))).to.deep.include({ options: null, urgency: 'normal' });
  });

  it('when every option is given, then it is stored normalised: all fields present, the date to the second, the language tag in its canonical case', () => {
    const input = validateCreateInput(valid({
      actions: [{ title: 'Scores', link: 'https://shop.example/scores' }, { title: 'Tickets 🎟️', link: 'http://tickets.example/buy?x=1' }],
      badge: 'https://shop.example/badge.png',
      requireInteraction: true,
      renotify: true,
      silent: false,
      vibrate: [200, 100.0, 0, 10000],
      timestamp: '2026-12-05T10:00:00.999+00:00',
      dir: 'rtl',
      lang: 'pt-br',
      urgency: 'high',
    }));
    expect(input.options).to.deep.equal({
      actions: [{ title: 'Scores', link: 'https://shop.example/scores' }, { title: 'Tickets 🎟️', link: 'http://tickets.example/buy?x=1' }],
      badge: 'https://shop.example/badge.png',
      requireInteraction: true,
      renotify: true,
      silent: false,
      vibrate: [200, 100, 0, 10000],
      timestamp: '2026-12-05T10:00:00Z',
      dir: 'rtl',
      lang: 'pt-BR',
    });
    expect(input.urgency).to.equal('high');
  });

  describe('actions', () => {
    for (const bad of ['x', {}, [1], [null], [[]], [{ title: 'A', link: 'https://a.example', extra: 1 }], [{ title: 'A', link: 'https://a.example' }, { title: 'B', link: 'https://b.example' }, { title: 'C', link: 'https://c.example' }]]) {
      it(`when actions is ${JSON.stringify(bad)}, then the list message`, () => {
        expect(messagesFor(valid({ actions: bad }))).to.deep.equal([ACTIONS]);
      });
    }
    it("when a button's text is missing, blank, not text or over 20 characters, then that button's title message", () => {
      for (const title of [undefined, '', '   ', 5, 'x'.repeat(21)]) {
        expect(messagesFor(valid({ actions: [{ title: 'Fine', link: 'https://a.example' }, { title, link: 'https://a.example' }] }))).to.deep.equal(['actions[1].title must be 1 to 20 characters']);
      }
      expect(messagesFor(valid({ actions: [{ title: '👨‍👩‍👧'.repeat(20), link: 'https://a.example' }] })), '20 characters as a reader counts them').to.deep.equal([]);
    });
    it("when a button's link is missing or not an absolute http(s) URL, then that button's link message", () => {
      for (const link of [undefined, '', 'javascript:alert(1)', 'data:text/html,x', '/relative', 'https://', 'https://a.example/' + 'x'.repeat(2048), 7]) {
        expect(messagesFor(valid({ actions: [{ title: 'Go', link }] }))).to.deep.equal(['actions[0].link must be a valid URL']);
      }
    });
    it('when a button holds NUL or an unpaired surrogate, then its characters message', () => {
      expect(messagesFor(valid({ actions: [{ title: 'Go\u0000', link: 'https://a.example/\ud800' }] }))).to.deep.equal([`actions[0].title ${BAD}`, `actions[0].link ${BAD}`]);
    });
    it('with a callToAction, one button more is allowed, not two', () => {
      expect(messagesFor(valid({ callToAction: 'Buy', actions: [{ title: 'More', link: 'https://a.example' }] }))).to.deep.equal([]);
      expect(messagesFor(valid({ callToAction: 'Buy', actions: [{ title: 'A', link: 'https://a.example' }, { title: 'B', link: 'https://b.example' }] }))).to.deep.equal([
        'actions may have only 1 button when callToAction is given (2 buttons in all)',
      ]);
    });
  });

  it('badge: an https URL like icon, with its own messages', () => {
    for (const badge of ['http://a.example/b.png', 'ftp://x', 12, 'https://']) expect(messagesFor(valid({ badge }))).to.deep.equal(['Badge must be a valid URL']);
    expect(messagesFor(valid({ badge: 'https://a.example/\u0000' }))).to.deep.equal([`Badge ${BAD}`]);
  });

  it('requireInteraction, renotify, silent: booleans', () => {
    expect(messagesFor(valid({ requireInteraction: 'true', renotify: 1, silent: {} }))).to.deep.equal([
      'requireInteraction must be a boolean',
      'renotify must be a boolean',
      'silent must be a boolean',
    ]);
  });

  it('vibrate: at most 10 whole milliseconds from 0 to 10000, and not with silent', () => {
    for (const vibrate of [200, '200', [-1], [10001], [1.5], ['1'], [null], Array(11).fill(100)]) expect(messagesFor(valid({ vibrate }))).to.deep.equal([VIBRATE]);
    expect(messagesFor(valid({ vibrate: Array(10).fill(10000) }))).to.deep.equal([]);
    expect(messagesFor(valid({ silent: true, vibrate: [100] }))).to.deep.equal(['vibrate cannot be used with silent']);
    expect(messagesFor(valid({ silent: true, vibrate: [] }))).to.deep.equal([]);
  });

  it("timestamp: the API's UTC dates, from 1970 on", () => {
    for (const timestamp of ['2026-12-05', '2026-12-05T10:00:00+01:00', '1969-12-31T23:59:59Z', '2026-02-30T00:00:00Z', 0, 'now']) {
      expect(messagesFor(valid({ timestamp }))).to.deep.equal([TIMESTAMP]);
    }
    expect(validateCreateInput(valid({ timestamp: '1970-01-01T00:00:00Z' })).options?.timestamp).to.equal('1970-01-01T00:00:00Z');
    expect(validateCreateInput(valid({ timestamp: '9999-12-31T23:59:59.999999999Z' })).options?.timestamp).to.equal('9999-12-31T23:59:59Z');
  });

  it('dir: auto, ltr or rtl; lang: a well-formed BCP 47 tag of at most 35 characters', () => {
    for (const dir of ['LTR', 'left', 1]) expect(messagesFor(valid({ dir }))).to.deep.equal(['dir must be auto, ltr or rtl']);
    for (const lang of ['pt_BR', 'pt BR', 'x', '123', 'en-' + 'a'.repeat(33), 7, 'é']) expect(messagesFor(valid({ lang }))).to.deep.equal([LANG]);
    for (const [lang, canonical] of [['EN', 'en'], ['zh-hant-tw', 'zh-Hant-TW'], ['sr-Latn', 'sr-Latn']]) {
      expect(validateCreateInput(valid({ lang })).options?.lang).to.equal(canonical);
    }
  });

  it('urgency: one of RFC 8030 §5.3', () => {
    for (const urgency of ['urgent', 'HIGH', 'very low', 3]) expect(messagesFor(valid({ urgency }))).to.deep.equal(['urgency must be very-low, low, normal or high']);
    for (const urgency of ['very-low', 'low', 'normal', 'high']) expect(validateCreateInput(valid({ urgency })).urgency).to.equal(urgency);
  });

  it("when several options are wrong, then their messages follow the spec's and the earlier additions', in the order of the fields", () => {
    expect(messagesFor(valid({ title: 'x', throttlePerMinute: -1, actions: 'x', badge: 'x', silent: 'x', vibrate: 'x', timestamp: 'x', dir: 'x', lang: '_', urgency: 'x' }))).to.deep.equal([
      'Title must be between 3 and 100 characters',
      'throttlePerMinute must be a whole number from 0 (no limit) to 1000000',
      ACTIONS,
      'Badge must be a valid URL',
      'silent must be a boolean',
      VIBRATE,
      TIMESTAMP,
      'dir must be auto, ltr or rtl',
      LANG,
      'urgency must be very-low, low, normal or high',
    ]);
  });

  it('the options count towards the size of the push: a notification that fits without them may not with them', () => {
    const big = { body: 'b'.repeat(300), title: 't'.repeat(100), link: `https://shop.example/${'p'.repeat(1900)}` };
    expect(messagesFor(valid(big))).to.deep.equal([]);
    const actions = [{ title: 'Go', link: `https://shop.example/${'a'.repeat(1500)}` }, { title: 'Go', link: `https://shop.example/${'b'.repeat(1500)}` }];
    expect(messagesFor(valid({ ...big, actions }))).to.deep.equal(['Notification is too large to send (over 4096 bytes encrypted)']);
  });
});
