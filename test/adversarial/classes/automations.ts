// Class 24: automations and events (/v2/automations, POST /v2/events; docs/api-decisions.md,
// "Automations"), attacked with an ordinary key: every automation field hostile (names, triggers —
// tag triggers' keys and values too —, steps with odd delays, ids, variables, send times and
// quiet-hours flags, exit events and exitOn.click, throttlePerMinute) → 200 or 400, bad text
// refused, nothing stored on a 4xx; hostile pause/rename/throttle bodies, and hostile
// throttlePerMinute values on create and PATCH each refused with its message; hostile events (ids, names, properties, the
// Idempotency-Key header) → 202 or 4xx, nothing stored on a 4xx (the steps' impressions and
// clicks included); the bystander's automation on every route (404 `Automation not found`), its
// template in a step (400), its trigger's event sent with the fuzzed site's key (its runs and its
// step's counters unchanged, read back 0); odd ids. Steps are never due within the
// class (a day's delay), so nothing is pushed.
import fc from 'fast-check';
import type { RequestSpec } from '../support/http.js';
import { hasBadText, hostileString, hostileValue, ODD_SEGMENTS, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, show, trackViolations, violation } from '../support/suite.js';

export const CLASS_AUTOMATIONS = '24 automations';
const cls = CLASS_AUTOMATIONS;

const FIELDS = ['name', 'status', 'trigger', 'steps', 'exitOn', 'throttlePerMinute'] as const;
const THROTTLE_MESSAGE = 'throttlePerMinute must be a whole number from 1 to 1000000 or null';
/** Near the bounds, of other types and hostile: each refused with THROTTLE_MESSAGE. */
const HOSTILE_THROTTLES: unknown[] = [0, -1, 1.5, 0.5, '10', '', 1_000_001, 2 ** 31, 2 ** 53, 1e308, -0.0001, true, false, [], [10], {}, { perMinute: 10 }, { valueOf: 10 }, '1e3', 'null'];
const DAY = 86_400;

function v2(method: string, path: string, key: string, body?: string, extra: [string, string][] = []): RequestSpec {
  const headers: [string, string][] = [['Authorization', key], ...extra];
  if (body !== undefined) headers.push(['Content-Type', 'application/json']);
  return { method, path, headers, body };
}

/** The site's automations, their runs and their steps' impressions and clicks, for "nothing stored on a 4xx". */
export async function automationsOf(siteId: string): Promise<string> {
  const { rows } = await getCtx().db.query(
    `SELECT (SELECT count(*)::int FROM campaign.automations WHERE site_id = $1) AS n,
            (SELECT coalesce(md5(string_agg(id || ':' || name || ':' || status || ':' || trigger_type || ':' || coalesce(trigger_event, '') || ':' || coalesce(trigger_value::text, '') || ':' || steps::text || ':' || exit_on::text || ':' || coalesce(throttle_per_minute::text, ''), ',' ORDER BY id)), '')
               FROM campaign.automations WHERE site_id = $1) AS a,
            (SELECT coalesce(md5(string_agg(e.automation_id || ':' || e.external_id || ':' || e.round || ':' || e.state || ':' || e.next_step, ',' ORDER BY e.automation_id, e.external_id)), '')
               FROM campaign.automation_enrolments e JOIN campaign.automations a ON a.id = e.automation_id WHERE a.site_id = $1) AS e,
            (SELECT coalesce(md5(string_agg(t.automation_id || ':' || t.step || ':' || t.impressions || ':' || t.clicks, ',' ORDER BY t.automation_id, t.step)), '')
               FROM campaign.automation_step_stats t JOIN campaign.automations a ON a.id = t.automation_id WHERE a.site_id = $1) AS t`,
    [siteId],
  );
  return `${rows[0].n}/${rows[0].a}/${rows[0].e}/${rows[0].t}`;
}

const eventName = fc.oneof(fc.constantFrom('cart_abandoned', 'checkout_completed', 'a', 'a'.repeat(64), 'a'.repeat(65), 'a b', 'ä', '', 'x:y.z-1', '__proto__'), hostileString);

export function registerAutomations(): void {
  describe(CLASS_AUTOMATIONS, function () {
    this.timeout(120_000);
    trackViolations(cls);
    let seq = 0;
    let templateId = '';

    async function automationProbe(spec: RequestSpec, what: string, allowed: number[], mustReject = false) {
      const { sites } = getCtx();
      const before = await automationsOf(sites.fuzz.id);
      const r = await probe(cls, spec, { siteId: sites.fuzz.id, allowed, mustReject, what });
      if (r.status === undefined || r.status >= 400) {
        if ((await automationsOf(sites.fuzz.id)) !== before) violation(cls, `${spec.method} ${spec.path} ${what}: answered ${r.status} but the automations changed`);
      }
      return r;
    }

    before(async () => {
      const { sites } = getCtx();
      const t = await probe(cls, v2('POST', '/v2/templates', sites.fuzz.apiKey, JSON.stringify({ name: 'adv automation step', title: 'Your {{ product | "cart" }} waits', body: 'Finish your order', link: 'https://shop.example/cart' })), {
        siteId: sites.fuzz.id,
        allowed: [200],
        what: 'step template',
      });
      templateId = t.body?.id as string;
    });

    it('create, pause and rename: every field hostile → 200/400, bad text refused, nothing stored on a 4xx', async () => {
      const { sites } = getCtx();
      const valid = () => ({ name: `adv ${++seq}`, trigger: { type: 'event', name: 'cart_abandoned' }, steps: [{ delaySeconds: DAY, templateId }], exitOn: { events: ['checkout_completed'] } });
      const step = fc.oneof(
        fc.record({ delaySeconds: fc.oneof(fc.integer({ min: -5, max: 31_536_005 }), hostileValue), templateId: fc.oneof(fc.constant(templateId), fc.uuid(), hostileValue) }),
        fc.record({ delaySeconds: fc.constant(DAY), templateId: fc.constant(templateId), variables: fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom('product', '__proto__', 'A'), hostileString), hostileValue, { maxKeys: 4 }), hostileValue) }),
        // A notification's send time on the step: near-valid and hostile windows, holdouts, flags.
        fc.record(
          {
            delaySeconds: fc.constant(DAY),
            templateId: fc.constant(templateId),
            sendTime: fc.oneof(
              fc.record({ mode: fc.constantFrom<unknown>('bestTime', 'now'), within: fc.constantFrom<unknown>('1h', '72h', '73h', 24), holdout: fc.constantFrom<unknown>(0, null, 10) }, { requiredKeys: ['mode'] }),
              hostileValue,
            ),
            respectQuietHours: fc.oneof(fc.constantFrom<unknown>(true, false, null), hostileValue),
          },
          { requiredKeys: ['delaySeconds', 'templateId'] },
        ),
        hostileValue,
      );
      const fieldValue = fc.oneof(
        { arbitrary: hostileValue, weight: 2 },
        { arbitrary: fc.record({ type: fc.oneof(fc.constantFrom('event', 'subscribed', 'tag'), hostileValue), name: eventName }, { requiredKeys: ['type'] }), weight: 2 },
        {
          arbitrary: fc.record(
            {
              type: fc.constant('tag'),
              name: fc.oneof(fc.constantFrom('plan', 'a'.repeat(64), 'a'.repeat(65), 'Plan', 'a-b', '__proto__'), hostileString),
              value: fc.oneof(fc.constantFrom('pro', 'x'.repeat(256), 'x'.repeat(257), 0, -1.5, 1e308, true, false, null), hostileValue),
            },
            { requiredKeys: ['type', 'name'] },
          ),
          weight: 2,
        },
        { arbitrary: fc.array(step, { minLength: 0, maxLength: 12 }), weight: 3 },
        { arbitrary: fc.record({ events: fc.oneof(fc.array(eventName, { maxLength: 22 }), hostileValue), click: fc.oneof(fc.boolean(), hostileValue) }, { requiredKeys: [] }), weight: 2 },
        { arbitrary: fc.oneof(fc.integer({ min: -2, max: 1_000_002 }), fc.constantFrom<unknown>(...HOSTILE_THROTTLES, null, 1, 1_000_000)), weight: 1 },
      );
      const mutation = fc.tuple(fc.constantFrom<string>(...FIELDS, 'unknownField', '__proto__'), fc.option(fieldValue, { nil: undefined, freq: 8 }));
      const made: string[] = [];
      await fuzz(fc.array(mutation, { minLength: 1, maxLength: 3 }), { numRuns: 250, timeMs: 15_000, seedOffset: 2401 }, async (mutations) => {
        const body: Record<string, unknown> = valid();
        for (const [field, v] of mutations) {
          if (v === undefined) delete body[field];
          else body[field] = v;
        }
        const r = await automationProbe(v2('POST', '/v2/automations', sites.fuzz.apiKey, toJsonText(body)), show(body, 200), [200, 400, 413, 429], hasBadText(body.name) || hasBadText(body.steps) || hasBadText(body.trigger));
        if (r.status === 200 && typeof r.body?.id === 'string') made.push(r.body.id);
        // An accepted step's send time reads back as asked (its window's default filled in).
        if (r.status === 200 && Array.isArray(body.steps)) {
          for (const [i, asked] of (body.steps as { sendTime?: { within?: string } | null }[]).entries()) {
            const within = asked.sendTime ? (asked.sendTime.within ?? '24h') : undefined;
            if (r.body?.steps?.[i]?.sendTime?.within !== within) violation(cls, `steps[${i}].sendTime ${show(asked, 120)} read back as ${show(r.body?.steps?.[i], 200)}`);
          }
        }
      });
      const target = made[0] ?? (await probe(cls, v2('POST', '/v2/automations', sites.fuzz.apiKey, JSON.stringify(valid())), { siteId: sites.fuzz.id, allowed: [200], what: 'target' })).body.id;
      const change = fc.dictionary(
        fc.oneof(fc.constantFrom('name', 'status', 'steps', 'trigger', 'throttlePerMinute'), hostileString),
        fc.oneof(fc.constantFrom<unknown>('active', 'paused', 'PAUSED', '', 60, null, 0, 1_000_001), hostileValue),
        { maxKeys: 3 },
      );
      await fuzz(change, { numRuns: 150, timeMs: 8_000, seedOffset: 2402 }, async (body) => {
        await automationProbe(v2('PATCH', `/v2/automations/${target}`, sites.fuzz.apiKey, toJsonText(body)), show(body, 200), [200, 400, 413, 429], hasBadText(body.name));
      });
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });

    it('throttlePerMinute: hostile values on create and PATCH → 400 with its message, nothing stored; 1, 1000000 and null read back', async () => {
      const { sites } = getCtx();
      const valid = (throttlePerMinute: unknown) => ({ name: `adv throttle ${++seq}`, trigger: { type: 'event', name: 'cart_abandoned' }, steps: [{ delaySeconds: DAY, templateId }], throttlePerMinute });
      const refused = async (spec: RequestSpec, what: string) => {
        const r = await automationProbe(spec, what, [400]);
        if (r.status === 400 && r.body?.message !== THROTTLE_MESSAGE) violation(cls, `${what}: ${show(r.body)}`);
      };
      const target = (await automationProbe(v2('POST', '/v2/automations', sites.fuzz.apiKey, JSON.stringify(valid(120))), 'throttled target', [200])).body?.id as string;
      for (const t of HOSTILE_THROTTLES) {
        await refused(v2('POST', '/v2/automations', sites.fuzz.apiKey, JSON.stringify(valid(t))), `create throttlePerMinute ${show(t)}`);
        if (target) await refused(v2('PATCH', `/v2/automations/${target}`, sites.fuzz.apiKey, JSON.stringify({ throttlePerMinute: t })), `PATCH throttlePerMinute ${show(t)}`);
      }
      // A number too long for a double: JSON text written by hand.
      await refused(v2('POST', '/v2/automations', sites.fuzz.apiKey, JSON.stringify(valid(0)).replace('"throttlePerMinute":0', `"throttlePerMinute":1${'0'.repeat(400)}`)), 'create throttlePerMinute 1e400');
      for (const t of [1, 1_000_000, null]) {
        const r = await automationProbe(v2('PATCH', `/v2/automations/${target}`, sites.fuzz.apiKey, JSON.stringify({ throttlePerMinute: t })), `PATCH throttlePerMinute ${t}`, [200]);
        if (r.status === 200 && r.body?.throttlePerMinute !== t) violation(cls, `PATCH throttlePerMinute ${t} read back as ${show(r.body?.throttlePerMinute)}`);
      }
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });

    it('events: hostile ids, names, properties and Idempotency-Key headers → 202/4xx, bad text refused, nothing stored on a 4xx', async () => {
      const { sites } = getCtx();
      const externalId = fc.oneof(fc.constantFrom('user-1', 'Ana María', 'a'.repeat(128), 'a'.repeat(129), '', '\u0085x', '𝔘'.repeat(128)), hostileString, hostileValue);
      const properties = fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom('product', 'total', '__proto__', 'A', '1a'), hostileString), fc.oneof(hostileValue, fc.string({ maxLength: 1001 })), { maxKeys: 52 }), hostileValue);
      const key = fc.option(fc.oneof(fc.constantFrom('k1', 'k1', 'k2', ' ', '\u00e9', 'x'.repeat(256)), hostileString), { nil: undefined });
      const body = fc.record({ externalId, name: fc.oneof(eventName, hostileValue), properties, extra: hostileValue }, { requiredKeys: [] });
      await fuzz(fc.tuple(body, key), { numRuns: 300, timeMs: 15_000, seedOffset: 2403 }, async ([b, k]) => {
        const headers: [string, string][] = k === undefined ? [] : [['Idempotency-Key', k]];
        await automationProbe(v2('POST', '/v2/events', sites.fuzz.apiKey, toJsonText(b), headers), show({ b, k }, 200), [202, 400, 413, 422, 429, 431], hasBadText(b));
      });
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });

    it("the bystander's automation on every route → 404, its template in a step → 400, its trigger's event with this site's key reaches nothing; odd ids → 4xx", async () => {
      const { sites } = getCtx();
      const theirTemplate = await probe(cls, v2('POST', '/v2/templates', sites.other.apiKey, JSON.stringify({ name: 'bystander step', title: 'Their title', body: 'Their body', link: 'https://other.example/' })), {
        siteId: sites.other.id,
        allowed: [200, 409],
        what: 'bystander template',
      });
      const theirTemplateId = (theirTemplate.body?.id as string | undefined) ?? templateId;
      const theirs = await probe(
        cls,
        v2('POST', '/v2/automations', sites.other.apiKey, JSON.stringify({ name: 'bystander', trigger: { type: 'event', name: 'bystander_event' }, steps: [{ delaySeconds: DAY, templateId: theirTemplateId }] })),
        { siteId: sites.other.id, allowed: [200], what: 'bystander automation' },
      );
      const theirId = theirs.body?.id as string;
      const before = await automationsOf(sites.other.id);
      const routes = (aid: string): [string, string, string | undefined][] => [
        ['GET', `/v2/automations/${aid}`, undefined],
        ['PATCH', `/v2/automations/${aid}`, JSON.stringify({ status: 'paused' })],
        ['DELETE', `/v2/automations/${aid}`, undefined],
      ];
      for (const [method, path, body] of routes(theirId)) {
        const r = await automationProbe(v2(method, path, sites.fuzz.apiKey, body), 'the bystander automation', [404]);
        if (r.status === 404 && r.body?.message !== 'Automation not found') violation(cls, `${method} ${path}: ${show(r.body)}`);
      }
      const stolen = await automationProbe(
        v2('POST', '/v2/automations', sites.fuzz.apiKey, JSON.stringify({ name: 'stolen', trigger: { type: 'subscribed' }, steps: [{ delaySeconds: DAY, templateId: theirTemplateId }] })),
        'a step with the bystander template',
        [400],
      );
      if (theirTemplate.body?.id && stolen.body?.message !== 'steps[0].templateId is not a template of this site') violation(cls, `a step with the bystander's template: ${show(stolen.body)}`);
      await automationProbe(v2('POST', '/v2/events', sites.fuzz.apiKey, JSON.stringify({ externalId: 'victim', name: 'bystander_event' })), "the bystander's trigger event", [202]);
      for (const odd of ODD_SEGMENTS) {
        for (const [method, path, body] of routes(odd)) await automationProbe(v2(method, path, sites.fuzz.apiKey, body), `odd id ${show(odd)}`, [400, 404, 405, 413, 429]);
      }
      if ((await automationsOf(sites.other.id)) !== before) violation(cls, "the bystander's automations, runs or step counters changed");
      const read = await probe(cls, v2('GET', `/v2/automations/${theirId}`, sites.other.apiKey), { siteId: sites.other.id, allowed: [200], what: 'the bystander reads its automation' });
      const results = read.body?.steps?.[0]?.results;
      if (!results || results.impressions !== 0 || results.clicks !== 0 || results.ctr !== 0) violation(cls, `the bystander's step results: ${show(results)}`);
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
