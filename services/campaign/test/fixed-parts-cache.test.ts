// The per-id cache of campaigns' fixed fields (src/campaigns/fixed-parts-cache.ts): bounded by the
// characters it holds, the oldest entry going first; a deleted campaign's entry can be dropped.
import { expect } from 'chai';
import fc from 'fast-check';
import type { FixedFields } from '../src/campaigns/campaign-rows.js';
import { createFixedPartsCache, fixedFieldsChars } from '../src/campaigns/fixed-parts-cache.js';

const parts = (text: string): FixedFields => ({
  title: text, body: 'Body', link: 'https://x.example', topics: ['news'], totalUsers: 7, image: undefined, icon: undefined,
  callToAction: '', utmSource: '', utmMedium: '', utmCampaign: '', ttl: 60,
  segment: text.length % 2 === 0 ? null : { languages: [text], timeZones: [], utcOffset: null, browsers: [], tags: [] },
  throttlePerMinute: undefined, ignoreFrequencyCap: false, localTime: null, abTest: null, options: null, urgency: 'normal', ignoreQuietHours: false, sendTime: null,
});
const cost = (text: string) => fixedFieldsChars(parts(text));

describe('fixed parts cache', () => {
  it('when more is remembered than the budget holds, then the oldest entries go first and the rest stay', () => {
    const cache = createFixedPartsCache(cost('a') * 3);
    for (const id of ['1', '2', '3']) cache.remember(id, parts('a'));
    cache.remember('4', parts('a'));
    expect(['1', '2', '3', '4'].map((id) => cache.get(id) !== undefined)).to.deep.equal([false, true, true, true]);
    expect(cache.get('4')).to.deep.equal(parts('a'));
  });

  it('when an id is remembered again, then the first parts stay (they never change); a forgotten id is gone and frees its room', () => {
    const cache = createFixedPartsCache(cost('a') * 2);
    cache.remember('1', parts('a'));
    cache.remember('1', parts('b'));
    expect(cache.get('1')).to.deep.equal(parts('a'));
    cache.remember('2', parts('a'));
    cache.forget('1');
    cache.forget('unknown');
    expect(cache.get('1')).to.equal(undefined);
    cache.remember('3', parts('a'));
    expect([cache.get('2'), cache.get('3')].every((p) => p !== undefined)).to.equal(true);
  });

  it('whatever is remembered and forgotten, the characters held never pass the budget and the newest entry that fits is kept', () => {
    const op = fc.oneof(
      fc.record({ remember: fc.integer({ min: 0, max: 30 }), text: fc.string({ maxLength: 200 }) }),
      fc.record({ forget: fc.integer({ min: 0, max: 30 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.array(op, { maxLength: 60 }), (budget, ops) => {
        const cache = createFixedPartsCache(budget);
        const held = new Map<string, number>();
        for (const o of ops) {
          if ('forget' in o) {
            cache.forget(String(o.forget));
            continue;
          }
          const id = String(o.remember);
          cache.remember(id, parts(o.text));
          if (cost(o.text) <= budget && !held.has(id)) expect(cache.get(id)).to.deep.equal(parts(o.text));
          held.set(id, 0);
        }
        let total = 0;
        for (const id of held.keys()) {
          const p = cache.get(id);
          if (p) total += fixedFieldsChars(p);
        }
        expect(total).to.be.at.most(budget);
      }),
    );
  });
});
