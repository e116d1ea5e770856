// Class 27: a segment's tag conditions (issue 37; docs/api-decisions.md, "Segments") through
// POST /v2/campaign/create with an API key: hostile conditions (keys, operators, values, lists,
// whole `tags` values) → 200 or 4xx, a 200 only for conditions within the rules and stored
// normalised, nothing stored on a 4xx; and no reach across sites: a condition the other site's
// people meet (the same external id, the same tag) counts none of them, and nothing of theirs
// changes.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { hasBadText, hostileString, hostileValue, toJsonText } from '../support/hostile.js';
import type { RequestSpec } from '../support/http.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, jsonRequest, sameSnapshot, show, snapshot, trackViolations, validSubscription, violation } from '../support/suite.js';

export const CLASS_SEGMENT_TAGS = '27 segment tag conditions';
const cls = CLASS_SEGMENT_TAGS;

const OPERATORS = ['equals', 'in', 'exists', 'notExists', 'gt', 'gte', 'lt', 'lte', 'before', 'after'];
const KEY = /^[a-z0-9_]{1,64}$/;
const TOPIC = 'segtags';

const sign = (secret: string, id: string) => createHmac('sha256', secret).update(id).digest('hex');
const draft = (segment: unknown) => ({ title: 'Tagged', body: 'A segment on tags', link: 'https://shop.example/', topics: [TOPIC], status: 'draft', scheduleMode: 'now', segment });
const create = (text: string, key: string): RequestSpec => ({ method: 'POST', path: '/v2/campaign/create', headers: [['Authorization', key], ['Content-Type', 'application/json']], body: text });

/** Whether a stored condition keeps the rules (segment.ts TagCondition, normalised). */
function withinRules(c: unknown): boolean {
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return false;
  const o = c as Record<string, unknown>;
  if (typeof o.key !== 'string' || !KEY.test(o.key) || !OPERATORS.includes(o.operator as string)) return false;
  const scalar = (v: unknown) => typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && [...v].length <= 256 && !hasBadText(v));
  switch (o.operator) {
    case 'exists':
    case 'notExists':
      return Object.keys(o).length === 2;
    case 'in':
      return Array.isArray(o.values) && o.values.length >= 1 && o.values.length <= 100 && o.values.every(scalar) && o.value === undefined;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return typeof o.value === 'number' && Number.isFinite(o.value);
    default:
      return scalar(o.value) && o.values === undefined;
  }
}

export function registerSegmentTags(): void {
  describe(CLASS_SEGMENT_TAGS, function () {
    this.timeout(120_000);
    trackViolations(cls);
    /** Subscriptions of the topic at each site, all of one person "tagged-user" tagged {tier: "gold"}. */
    const subscribed = { fuzz: 0, other: 0 };

    before(async () => {
      const { stack, sites } = getCtx();
      for (const name of ['fuzz', 'other'] as const) {
        const site = sites[name];
        const secret = (await stack.cli('sites', 'identity-secret', site.id)).secret as string;
        for (let i = 0; i < 2; i++) {
          const sub = validSubscription(`segtags-${name}`);
          const r = await probe(cls, jsonRequest('POST', `/public/v1/sites/${site.publicId}/subscriptions`, { subscription: sub, topics: [TOPIC] }), { siteId: site.id, allowed: [201], what: '(setup)' });
          if (r.status !== 201) continue;
          await probe(cls, jsonRequest('POST', `/public/v1/sites/${site.publicId}/identity`, { endpoint: sub.endpoint, externalId: 'tagged-user', signature: sign(secret, 'tagged-user') }), { siteId: site.id, allowed: [200], what: '(setup)' });
          subscribed[name]++;
        }
        // The other site's person also carries a value the fuzzed site's never does.
        const tags = name === 'fuzz' ? { tier: 'gold', score: 10 } : { tier: 'gold', score: 10, only_b: 'yes' };
        await probe(cls, jsonRequest('PATCH', '/v2/users/tagged-user', { tags }, site.apiKey), { siteId: site.id, allowed: [200], what: '(setup)' });
      }
    });

    it('hostile tag conditions → 200 or 4xx; a 200 stores only conditions within the rules, normalised; nothing stored on a 4xx', async () => {
      const { sites, db } = getCtx();
      const key = fc.oneof(fc.constantFrom('tier', 'score', 'x'.repeat(64), 'x'.repeat(65), 'Tier', 'a-b', ''), hostileString, hostileValue);
      const operator = fc.oneof(fc.constantFrom(...OPERATORS, 'EQUALS', 'like', 'regex', '__proto__', 'constructor'), hostileValue);
      const value = fc.oneof(
        hostileValue,
        hostileString,
        fc.double(),
        fc.constantFrom('gold', '-P7D', 'P3650D', 'P3651D', 'P1M', '-PT', '2026-12-07', '2026-02-30', '2026-12-07T10:00:00+01:00', '9999-12-31T23:59:59Z', '0000-01-01', 'x'.repeat(257), 1e308, -0),
      );
      const values = fc.oneof(fc.array(value, { maxLength: 8 }), fc.constant(Array(101).fill('a')), fc.constant(Array(100).fill('a')), hostileValue);
      const condition = fc.oneof(fc.record({ key, operator, value, values }, { requiredKeys: [] }), hostileValue);
      const tags = fc.oneof(fc.array(condition, { maxLength: 12 }), fc.constant(Array(11).fill({ key: 'tier', operator: 'exists' })), hostileValue);
      await fuzz(tags, { numRuns: 400, timeMs: 16_000, seedOffset: 2701 }, async (t) => {
        const r = await probe(cls, create(toJsonText(draft({ tags: t })), sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [200, 400, 413, 429], what: show(t, 200) });
        if (r.status !== 200) return;
        const id = r.body?.id as string;
        const { rows } = await db.query(`SELECT segment::text AS segment FROM campaign.campaigns WHERE id = $1`, [id]);
        const stored = rows[0]?.segment ? JSON.parse(rows[0].segment).tags : undefined;
        if (!Array.isArray(stored) || stored.length === 0 || stored.length > 10 || !stored.every(withinRules)) violation(cls, `tags ${show(t)}: stored ${show(stored)}`);
        else if (!Array.isArray(t) || t.length < stored.length) violation(cls, `tags ${show(t)}: accepted, stored ${show(stored)}`);
      });
      assertNoViolations(cls);
    });

    it("counts reach only the site's own people: the other site's person of the same id and tags counts none, and nothing of theirs changes", async () => {
      const { sites } = getCtx();
      const before = await snapshot(sites.other.id);
      const totalUsers = async (tags: unknown[]) => {
        const r = await probe(cls, jsonRequest('POST', '/v2/campaign/create', draft({ tags }), sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [200], what: show(tags) });
        const got = await probe(cls, { method: 'GET', path: `/v2/campaign/${r.body?.id}`, headers: [['Authorization', sites.fuzz.apiKey]] }, { siteId: sites.fuzz.id, allowed: [200], what: '(read back)' });
        return got.body?.totalUsers as number;
      };
      const cases: [unknown[], number][] = [
        [[{ key: 'only_b', operator: 'exists' }], 0],
        [[{ key: 'only_b', operator: 'equals', value: 'yes' }], 0],
        [[{ key: 'tier', operator: 'equals', value: 'gold' }], subscribed.fuzz],
        [[{ key: 'score', operator: 'gte', value: 10 }, { key: 'tier', operator: 'in', values: ['gold', 'silver'] }], subscribed.fuzz],
        [[{ key: 'only_b', operator: 'notExists' }, { key: 'tier', operator: 'exists' }], subscribed.fuzz],
      ];
      for (const [tags, expected] of cases) {
        const n = await totalUsers(tags);
        if (n !== expected) violation(cls, `tags ${show(tags)}: totalUsers ${n}, expected ${expected} (the site's own subscriptions only)`);
      }
      if (!sameSnapshot(before, await snapshot(sites.other.id))) violation(cls, "creates at site A changed site B's data");
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
