// Class 1: every /v2 endpoint and every field with hostile input: arbitrary Unicode (NUL, lone
// surrogates, RTL, ZWJ), huge values, wrong types, deep nesting, odd bodies, content types and
// encodings, odd Authorization and Idempotency-Key bytes, odd campaign ids and methods.
import fc from 'fast-check';
import type { HeaderList, RequestSpec } from '../support/http.js';
import { CONTENT_TYPES, edgeDateTime, encodedVariants, hasBadText, hostileString, hostileValue, ODD_SEGMENTS, pathSegment, RAW_BODIES, spreadsheetFormula, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, trackViolations, endOfClassChecks, getCtx, jsonRequest, show, validSubscription, violation } from '../support/suite.js';

export const CLASS_V2 = '1 /v2 input';
const cls = CLASS_V2;

const CREATE_FIELDS = [
  'title', 'body', 'link', 'topics', 'countries', 'status', 'scheduleMode', 'scheduleDate', 'icon', 'image', 'callToAction', 'utmSource', 'utmMedium', 'utmCampaign', 'ttl',
  // the additions of 2026-11-26
  'segment', 'throttlePerMinute', 'ignoreFrequencyCap',
  // the additions of 2026-11-27
  'localTime', 'abTest',
  // the additions of 2026-12-05 (notification options)
  'actions', 'badge', 'requireInteraction', 'renotify', 'silent', 'vibrate', 'timestamp', 'dir', 'lang', 'urgency',
  // the addition of 2026-12-07 (quiet hours)
  'ignoreQuietHours',
  // the addition of 2026-12-07 (best time)
  'sendTime',
] as const;
const OPTION_FIELDS = ['actions', 'badge', 'requireInteraction', 'renotify', 'silent', 'vibrate', 'timestamp', 'dir', 'lang', 'urgency'] as const;
const WEBHOOK_FIELDS = ['url', 'events', 'description', 'enabled'] as const;
// POST /v2/campaign/{campaignId}/update's fields (an addition of 2026-12-05: update and recall).
const UPDATE_FIELDS = ['title', 'body', 'link', 'icon', 'image'] as const;
const LIST_FIELDS = ['startDate', 'endDate', 'dateField', 'status', 'limit', 'cursor'] as const;

const CREATE_ALLOWED = [200, 400, 413, 429];
const LIST_ALLOWED = [200, 400, 413, 429];
const BY_ID_ALLOWED = [400, 404, 429];

function validCampaign(): Record<string, unknown> {
  return { title: 'Adversarial', body: 'A campaign body that is valid', link: 'https://shop.example/sale', topics: ['news'], status: 'draft', scheduleMode: 'now' };
}

function mutate(base: Record<string, unknown>, mutations: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [field, value] of mutations) {
    if (value === undefined) delete out[field];
    else out[field] = value;
  }
  return out;
}

/** True when a field the endpoint reads carries text no field may carry. */
function knownFieldsBad(body: Record<string, unknown>, fields: readonly string[]): boolean {
  // scheduleDate is read only in schedule mode (otherwise ignored, like an unknown field).
  const read = fields.filter((f) => f !== 'scheduleDate' || body.scheduleMode === 'scheduled');
  return read.some((f) => Object.hasOwn(body, f) && hasBadText(body[f]));
}

function spec(method: string, path: string, key: string, body?: string | Buffer, headers: HeaderList = []): RequestSpec {
  const h: HeaderList = [['Authorization', key], ...headers];
  if (body !== undefined && !headers.some(([n]) => n.toLowerCase() === 'content-type')) h.push(['Content-Type', 'application/json']);
  return { method, path, headers: h, body };
}

/** The cells of an RFC 4180 text, unquoted. */
function csvCells(text: string): string[] {
  const cells: string[] = [];
  const cell = /"((?:[^"]|"")*)"|([^,\r\n]*)/y;
  for (let i = 0; i < text.length; ) {
    cell.lastIndex = i;
    const m = cell.exec(text)!;
    cells.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]);
    i = cell.lastIndex;
    i += text.startsWith('\r\n', i) ? 2 : 1;
  }
  return cells;
}

export function registerV2Input(): void {
  describe(CLASS_V2, function () {
    this.timeout(120_000);
    trackViolations(cls);

    it('create: every field with arbitrary Unicode, huge values, wrong types and deep nesting → 2xx/4xx, bad text refused, nothing stored on 4xx', async () => {
      const { sites } = getCtx();
      const mutation = fc.tuple(fc.constantFrom<string>(...CREATE_FIELDS, 'unknownField', '__proto__'), fc.option(hostileValue, { nil: undefined, freq: 8 }));
      await fuzz(fc.array(mutation, { minLength: 1, maxLength: 3 }), { numRuns: 500, timeMs: 15_000, seedOffset: 1 }, async (mutations) => {
        const body = mutate(validCampaign(), mutations);
        const text = toJsonText(body);
        const r = await probe(cls, spec('POST', '/v2/campaign/create', sites.fuzz.apiKey, text), {
          siteId: sites.fuzz.id,
          allowed: CREATE_ALLOWED,
          mustReject: knownFieldsBad(body, CREATE_FIELDS),
          what: show(body, 200),
        });
        // Text is stored exactly or refused: never silently changed into U+FFFD.
        if (r.status === 200 && typeof r.body?.id === 'string' && !text.includes('\ufffd')) {
          const got = await probe(cls, spec('GET', `/v2/campaign/${r.body.id}`, sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [200], what: '(read back)' });
          if (got.result.responses[0]?.text.includes('\ufffd')) violation(cls, `create ${show(body)}: stored text was changed into U+FFFD`);
        }
      });
      assertNoViolations(cls);
    });

    it('create: notification options shaped almost right (buttons with hostile text and links, odd patterns, edge dates, odd tags and urgencies) → 200/400, bad text refused, nothing stored on 4xx, a stored campaign reads back', async () => {
      const { sites } = getCtx();
      const link = fc.oneof(hostileString, fc.constantFrom('https://shop.example/a', 'http://x.example/?q=%00', 'javascript:alert(1)', 'https://[::1]/', `https://x.example/${'p'.repeat(2100)}`));
      const button = fc.oneof(
        fc.record({ title: fc.oneof(hostileString, fc.constantFrom('Go', '', ' ')), link }),
        fc.record({ title: hostileValue, link: hostileValue, extra: fc.option(hostileValue, { nil: undefined }) }),
      );
      const option: fc.Arbitrary<[string, unknown]> = fc.oneof(
        fc.tuple(fc.constant('actions'), fc.oneof(fc.array(button, { maxLength: 3 }), hostileValue) as fc.Arbitrary<unknown>),
        fc.tuple(fc.constant('badge'), fc.oneof(link, hostileValue) as fc.Arbitrary<unknown>),
        fc.tuple(fc.constantFrom('requireInteraction', 'renotify', 'silent'), fc.oneof(fc.boolean(), hostileValue) as fc.Arbitrary<unknown>),
        fc.tuple(fc.constant('vibrate'), fc.oneof(fc.array(fc.oneof(fc.integer({ min: -5, max: 10_005 }), fc.double(), hostileValue), { maxLength: 12 }), hostileValue) as fc.Arbitrary<unknown>),
        fc.tuple(fc.constant('timestamp'), fc.oneof(edgeDateTime, hostileValue) as fc.Arbitrary<unknown>),
        fc.tuple(fc.constantFrom('dir', 'lang', 'urgency'), fc.oneof(fc.constantFrom('auto', 'ltr', 'rtl', 'RTL', 'pt-BR', 'x-private', 'en-u-ca-gregory', 'very-low', 'high', 'urgent', 'a'.repeat(36)), hostileValue) as fc.Arbitrary<unknown>),
      );
      await fuzz(fc.tuple(fc.array(option, { minLength: 1, maxLength: 4 }), fc.constantFrom('', 'Buy')), { numRuns: 400, timeMs: 12_000, seedOffset: 19 }, async ([mutations, callToAction]) => {
        const body = mutate({ ...validCampaign(), ...(callToAction ? { callToAction } : {}) }, mutations);
        const r = await probe(cls, spec('POST', '/v2/campaign/create', sites.fuzz.apiKey, toJsonText(body)), {
          siteId: sites.fuzz.id,
          allowed: CREATE_ALLOWED,
          mustReject: knownFieldsBad(body, OPTION_FIELDS),
          what: show(body, 300),
        });
        if (r.status === 200 && typeof r.body?.id === 'string') {
          await probe(cls, spec('GET', `/v2/campaign/${r.body.id}`, sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [200], what: '(read back)' });
        }
      });
      assertNoViolations(cls);
    });

    it('create: sendTime shaped almost right (best time with odd modes, windows and holdouts, with a local time, hostile members) → 200/400, nothing stored on 4xx, a stored campaign reads back', async () => {
      const { sites } = getCtx();
      const delivery = fc.oneof(
        fc.record(
          {
            mode: fc.oneof(fc.constantFrom('bestTime', 'besttime', 'now', ''), hostileValue),
            within: fc.oneof(fc.constantFrom('1h', '24h', '72h', '0h', '73h', '24', '1e1h', '９h', '-1h', `${'9'.repeat(400)}h`), hostileValue),
            holdout: fc.oneof(fc.integer({ min: -5, max: 105 }), fc.constantFrom(0.5, 1e308, -0, Number.MAX_SAFE_INTEGER), hostileValue),
            extra: hostileValue,
          },
          { requiredKeys: ['mode'] },
        ),
        hostileValue,
      );
      await fuzz(fc.tuple(delivery, fc.boolean()), { numRuns: 300, timeMs: 10_000, seedOffset: 23 }, async ([d, withLocalTime]) => {
        const local = withLocalTime ? { scheduleMode: 'scheduled', scheduleDate: '2099-01-01T00:00:00Z', localTime: '09:00' } : {};
        const body = { ...validCampaign(), ...local, sendTime: d };
        const r = await probe(cls, spec('POST', '/v2/campaign/create', sites.fuzz.apiKey, toJsonText(body)), {
          siteId: sites.fuzz.id,
          allowed: CREATE_ALLOWED,
          mustReject: knownFieldsBad(body, ['sendTime']),
          what: show(body, 300),
        });
        if (r.status === 200 && typeof r.body?.id === 'string') {
          await probe(cls, spec('GET', `/v2/campaign/${r.body.id}`, sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [200], what: '(read back)' });
        }
      });
      assertNoViolations(cls);
    });

    it('webhooks: create and change with every field hostile → 200/4xx, bad text refused, nothing stored on 4xx', async () => {
      const { sites } = getCtx();
      const key = sites.fuzz.apiKey;
      const valid = { url: 'https://hooks.example.com/push', events: ['campaign.completed'], description: 'fuzz' };
      const made = await probe(cls, spec('POST', '/v2/webhooks', key, JSON.stringify(valid)), { siteId: sites.fuzz.id, allowed: [200], what: '(a webhook to change)' });
      const changeId = made.body?.id as string;
      const mutation = fc.tuple(fc.constantFrom<string>(...WEBHOOK_FIELDS, 'unknownField', '__proto__'), fc.option(hostileValue, { nil: undefined, freq: 8 }));
      await fuzz(fc.tuple(fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.boolean()), { numRuns: 200, timeMs: 10_000, seedOffset: 16 }, async ([mutations, change]) => {
        const body = mutate(valid, mutations);
        const r = await probe(cls, spec(change ? 'PATCH' : 'POST', change ? `/v2/webhooks/${changeId}` : '/v2/webhooks', key, toJsonText(body)), {
          siteId: sites.fuzz.id,
          allowed: [200, 400, 413, 429],
          mustReject: knownFieldsBad(body, ['url', 'description']),
          what: show(body, 200),
        });
        // Keep the site under its 10 endpoints (a refusal at the limit would hide the rest).
        if (!change && r.status === 200 && typeof r.body?.id === 'string') {
          await probe(cls, spec('DELETE', `/v2/webhooks/${r.body.id}`, key), { siteId: sites.fuzz.id, allowed: [200], what: '(clean-up)' });
        }
      });
      assertNoViolations(cls);
    });

    it('import: subscription items with hostile fields (createdAt in year 0000 and other edges) → 200 with each imported or refused, 4xx for the shape, never 5xx', async () => {
      const { sites } = getCtx();
      const fields = ['endpoint', 'keys', 'topics', 'country', 'createdAt', 'unknownField'];
      const mutation = fc.oneof(
        fc.tuple(fc.constant('createdAt'), fc.oneof(edgeDateTime, hostileValue) as fc.Arbitrary<unknown>),
        fc.tuple(fc.constantFrom(...fields), fc.option(hostileValue, { nil: undefined, freq: 8 })),
      );
      const item = fc.array(mutation, { minLength: 0, maxLength: 3 }).map((m) => mutate(validSubscription('import') as unknown as Record<string, unknown>, m));
      await fuzz(fc.array(item, { minLength: 1, maxLength: 4 }), { numRuns: 150, timeMs: 8_000, seedOffset: 17 }, async (items) => {
        const r = await probe(cls, spec('POST', '/v2/subscribers/import', sites.fuzz.apiKey, toJsonText({ subscriptions: items })), {
          siteId: sites.fuzz.id,
          allowed: [200, 400, 413, 429],
          what: show(items, 300),
        });
        if (r.status === 200 && r.body?.received !== items.length) violation(cls, `import ${show(items)}: received ${r.body?.received} of ${items.length}`);
      });
      assertNoViolations(cls);
    });

    it('export: topics a spreadsheet would run after a `;` or tab (`0;=HYPERLINK(…)`) → no part of any CSV cell starts a formula', async () => {
      const { sites } = getCtx();
      await fuzz(fc.array(spreadsheetFormula, { minLength: 1, maxLength: 3 }), { numRuns: 20, timeMs: 6_000, seedOffset: 18 }, async (topics) => {
        await probe(cls, jsonRequest('POST', `/public/v1/sites/${sites.fuzz.publicId}/subscriptions`, { subscription: validSubscription('csv'), topics }), { siteId: sites.fuzz.id, allowed: [200, 201, 400, 429], what: show(topics) });
      });
      const r = await probe(cls, spec('GET', '/v2/subscribers/export?format=csv', sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [200, 429], what: '(CSV export)', timeoutMs: 30_000 });
      if (r.status === 200) {
        for (const cell of csvCells(r.result.responses[0].text)) {
          const formula = cell.split(/[;\t]/).find((part) => /^[=+\-@\t\r]/.test(part));
          if (formula !== undefined) violation(cls, `export CSV: the cell ${show(cell, 120)} has a part a spreadsheet would run: ${show(formula, 60)}`);
        }
      }
      assertNoViolations(cls);
    });

    it('list: every filter with hostile values → 200/400 at once, bad text refused', async () => {
      const { sites } = getCtx();
      const mutation = fc.tuple(fc.constantFrom<string>(...LIST_FIELDS, 'unknownField'), fc.option(fc.oneof(hostileValue, fc.array(hostileString, { minLength: 1, maxLength: 4 })), { nil: undefined, freq: 8 }));
      await fuzz(fc.array(mutation, { minLength: 1, maxLength: 3 }), { numRuns: 400, timeMs: 10_000, seedOffset: 2 }, async (mutations) => {
        const body = mutate({ limit: 5 }, mutations);
        await probe(cls, spec('POST', '/v2/campaigns', sites.fuzz.apiKey, toJsonText(body)), {
          siteId: sites.fuzz.id,
          allowed: LIST_ALLOWED,
          mustReject: knownFieldsBad(body, LIST_FIELDS),
          what: show(body, 200),
          timeoutMs: 15_000,
        });
      });
      assertNoViolations(cls);
    });

    it('get and delete: arbitrary and odd campaign ids (%00, %ud800, very long) → 400/404, nothing deleted', async () => {
      const { sites } = getCtx();
      const ids = fc.oneof(hostileString.filter((s) => s.length < 3000).map(pathSegment), fc.constantFrom(...ODD_SEGMENTS));
      await fuzz(fc.tuple(fc.constantFrom('GET', 'DELETE', 'HEAD'), ids), { numRuns: 300, timeMs: 8_000, seedOffset: 3 }, async ([method, id]) => {
        const path = `/v2/campaign/${id}`;
        await probe(cls, spec(method, path, sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [...BY_ID_ALLOWED, 414, 431], what: '' });
      });
      // No id at all, and the id in odd places.
      for (const path of ['/v2/campaign', '/v2/campaign/', '/v2/campaign//', '/v2/campaign/%2F', '/v2/campaign/a/b', '/v2/campaign/?id=1', '/v2//campaign/x', '/V2/campaign/x']) {
        for (const method of ['GET', 'DELETE']) await probe(cls, spec(method, path, sites.fuzz.apiKey), { siteId: sites.fuzz.id, allowed: [...BY_ID_ALLOWED, 405], what: '' });
      }
      assertNoViolations(cls);
    });

    it('winner: odd campaign ids and hostile variants → 400/404/409, never 5xx', async () => {
      const { sites } = getCtx();
      const key = sites.fuzz.apiKey;
      // A campaign with an A/B test (a draft: its test has not started) and one without.
      const created = async (extra: Record<string, unknown>) => {
        const r = await probe(cls, spec('POST', '/v2/campaign/create', key, JSON.stringify({ ...validCampaign(), ...extra })), { siteId: sites.fuzz.id, allowed: [200], what: '(setup)' });
        return String(r.body?.id);
      };
      const withTest = await created({ abTest: { variants: [{}, { title: 'Other title' }], testPercent: 10, winnerMetric: 'ctr', windowMinutes: 60 } });
      const without = await created({});
      const ids = fc.oneof(hostileString.filter((s) => s.length < 3000).map(pathSegment), fc.constantFrom(...ODD_SEGMENTS, withTest, without));
      const bodies = fc.oneof(hostileValue.map((variant) => toJsonText({ variant })), hostileValue.map(toJsonText));
      await fuzz(fc.tuple(ids, bodies), { numRuns: 300, timeMs: 8_000, seedOffset: 9 }, async ([id, body]) => {
        await probe(cls, spec('POST', `/v2/campaign/${id}/winner`, key, body), { siteId: sites.fuzz.id, allowed: [400, 404, 409, 413, 414, 429, 431], what: show(body, 200) });
      });
      assertNoViolations(cls);
    });

    it('update and recall: odd campaign ids and hostile update fields → 200/400/404/409, never 5xx, bad text refused, nothing stored on a 4xx', async () => {
      const { sites } = getCtx();
      const key = sites.fuzz.apiKey;
      const created = async (extra: Record<string, unknown>) => {
        const r = await probe(cls, spec('POST', '/v2/campaign/create', key, JSON.stringify({ ...validCampaign(), ...extra })), { siteId: sites.fuzz.id, allowed: [200], what: '(setup)' });
        return String(r.body?.id);
      };
      // Two campaigns sent now (to whatever audience the site has: their runs finish at once
      // when it is empty), one updated and one recalled by the fuzz, and a draft (409).
      const toUpdate = await created({ status: 'published' });
      const toRecall = await created({ status: 'published' });
      const draft = await created({});
      for (let i = 0; i < 120; i++) {
        const r = await probe(cls, spec('POST', '/v2/campaigns', key, JSON.stringify({ status: ['sent'], limit: 60 })), { siteId: sites.fuzz.id, allowed: [200, 429], what: '(setup: sent)' });
        const sent = ((r.body?.items ?? []) as { id: string; delivery?: { pending?: number } }[]).filter((c) => c.id === toUpdate || c.id === toRecall);
        if (sent.length === 2 && sent.every((c) => c.delivery?.pending === 0)) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const ids = (...own: string[]) => fc.oneof(hostileString.filter((x) => x.length < 3000).map(pathSegment), fc.constantFrom(...ODD_SEGMENTS, draft, ...own));
      const mutation = fc.tuple(fc.constantFrom<string>(...UPDATE_FIELDS, 'callToAction', 'unknownField'), fc.option(hostileValue, { nil: undefined, freq: 8 }));
      const updates = fc.oneof(
        { arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }).map((m) => mutate({}, m) as unknown), weight: 4 },
        { arbitrary: hostileValue as fc.Arbitrary<unknown>, weight: 1 },
      );
      await fuzz(fc.tuple(ids(toUpdate), updates), { numRuns: 250, timeMs: 8_000, seedOffset: 19 }, async ([id, body]) => {
        const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
        await probe(cls, spec('POST', `/v2/campaign/${id}/update`, key, toJsonText(body)), {
          siteId: sites.fuzz.id,
          allowed: [200, 400, 404, 409, 413, 414, 429, 431],
          mustReject: isObject && knownFieldsBad(body as Record<string, unknown>, UPDATE_FIELDS),
          what: show(body, 200),
        });
      });
      await fuzz(fc.tuple(ids(toRecall), fc.oneof(fc.constant(''), hostileValue.map(toJsonText))), { numRuns: 100, timeMs: 5_000, seedOffset: 20 }, async ([id, body]) => {
        await probe(cls, spec('POST', `/v2/campaign/${id}/recall`, key, body), { siteId: sites.fuzz.id, allowed: [200, 400, 404, 409, 413, 414, 429, 431], what: show(body, 200) });
      });
      assertNoViolations(cls);
    });

    it('bodies, content types and encodings: raw bodies, invalid UTF-8, charset=utf-16, gzip (bomb) on create and list', async () => {
      const { sites } = getCtx();
      const key = sites.fuzz.apiKey;
      for (const [path, allowed] of [
        ['/v2/campaign/create', CREATE_ALLOWED],
        ['/v2/campaigns', LIST_ALLOWED],
      ] as const) {
        for (const raw of RAW_BODIES) {
          await probe(cls, spec('POST', path, key, raw.body), { siteId: sites.fuzz.id, allowed, what: `body: ${raw.label}`, mustReject: /NUL|surrogate/.test(raw.label) && path.endsWith('create') });
        }
        const valid = path.endsWith('create') ? JSON.stringify(validCampaign()) : '{"limit":1}';
        for (const ct of CONTENT_TYPES) {
          const headers: HeaderList = ct === null ? [] : [['Content-Type', ct]];
          // With no Content-Type header at all, the request builder must not add one.
          const s: RequestSpec = { method: 'POST', path, headers: [['Authorization', key], ...headers], body: valid };
          await probe(cls, s, { siteId: sites.fuzz.id, allowed, what: `content-type ${ct}` });
        }
        for (const v of encodedVariants(valid)) {
          await probe(cls, spec('POST', path, key, v.body, v.headers), { siteId: sites.fuzz.id, allowed: [...allowed, 415], what: `encoding: ${v.label}` });
        }
      }
      // A GET or DELETE carrying a body.
      for (const method of ['GET', 'DELETE']) {
        await probe(cls, spec(method, '/v2/campaign/00000000-0000-0000-0000-000000000000', key, '{"siteId":"x"}'), { siteId: sites.fuzz.id, allowed: BY_ID_ALLOWED, what: 'with a body' });
        await probe(cls, spec(method, '/v2/topics', key, RAW_BODIES.find((b) => b.label === '1 MB')!.body), { siteId: sites.fuzz.id, allowed: [200, 400, 405, 413], what: 'with a 1 MB body' });
      }
      assertNoViolations(cls);
    });

    it('headers: Authorization and Idempotency-Key with odd bytes, huge, repeated → 4xx, never 5xx', async () => {
      const { sites, stack } = getCtx();
      const key = sites.fuzz.apiKey;
      const create = JSON.stringify(validCampaign());
      // [label, headers, the key is the real one (optional whitespace is not part of a header value; of two, the first counts)]
      const auths: [string, HeaderList, boolean?][] = [
        ['none', []],
        ['empty', [['Authorization', '']]],
        ['space', [['Authorization', ' ']]],
        ['Bearer prefix', [['Authorization', `Bearer ${key}`]]],
        ['trailing tab', [['Authorization', `${key}\t`]], true],
        ['upper-cased', [['Authorization', key.toUpperCase()]]],
        ['doubled', [['Authorization', key + key]]],
        ['two headers', [['Authorization', key], ['Authorization', 'wrong']], true],
        ['two headers, wrong first', [['Authorization', 'wrong'], ['Authorization', key]]],
        ['latin-1 bytes', [['Authorization', Buffer.from([0x80, 0xa0, 0xff, 0xfe, 0xe9])]]],
        ['UTF-8 RTL + ZWJ', [['Authorization', Buffer.from(`\u202e${key}\u200d`, 'utf8')]]],
        ['NUL byte', [['Authorization', Buffer.concat([Buffer.from(key), Buffer.from([0]), Buffer.from('x')])]]],
        ['bare CR', [['Authorization', Buffer.from(`${key}\rX-Injected: 1`, 'latin1')]]],
        ['DEL byte', [['Authorization', Buffer.from([0x61, 0x7f, 0x62])]]],
        ['8 kB', [['Authorization', 'k'.repeat(8_000)]]],
        ['20 kB', [['Authorization', 'k'.repeat(20_000)]]],
        ['200 kB', [['Authorization', 'k'.repeat(200_000)]]],
        ['another service token', [['Authorization', stack.services.env.gateway.GATEWAY_INTERNAL_TOKEN ?? 'x']]],
      ];
      for (const [label, headers, real] of auths) {
        for (const [method, path, body] of [
          ['POST', '/v2/campaign/create', create],
          ['POST', '/v2/campaigns', '{}'],
          ['GET', '/v2/topics', undefined],
          ['GET', '/v2/countries', undefined],
          ['DELETE', '/v2/campaign/00000000-0000-0000-0000-000000000000', undefined],
        ] as const) {
          const h: HeaderList = [...headers];
          if (body !== undefined) h.push(['Content-Type', 'application/json']);
          await probe(cls, { method, path, headers: h, body }, { siteId: sites.fuzz.id, allowed: real ? [200, 404] : [400, 403, 429, 431], what: `Authorization: ${label}` });
        }
      }
      const idem: [string, string | Buffer | string[]][] = [
        ['empty', ''],
        ['space inside', 'a b'],
        ['256 chars', 'i'.repeat(256)],
        ['10 kB', 'i'.repeat(10_000)],
        ['latin-1 bytes', Buffer.from([0xe9, 0xff])],
        ['UTF-8 RTL', Buffer.from('key\u202e1', 'utf8')],
        ['NUL byte', Buffer.from([0x6b, 0x00, 0x31])],
        ['repeated', ['same-key-1', 'same-key-2']],
      ];
      for (const [label, value] of idem) {
        const headers: HeaderList = Array.isArray(value) ? value.map((v) => ['Idempotency-Key', v] as [string, string]) : [['Idempotency-Key', value]];
        await probe(cls, spec('POST', '/v2/campaign/create', key, create, headers), { siteId: sites.fuzz.id, allowed: [200, 400, 431], what: `Idempotency-Key: ${label}` });
      }
      assertNoViolations(cls);
    });

    it('methods, paths and query strings: unknown methods, odd paths → 4xx with {message}', async () => {
      const { sites } = getCtx();
      const key = sites.fuzz.apiKey;
      const paths = ['/v2/campaign/create', '/v2/campaigns', '/v2/topics', '/v2/countries', '/v2/campaign/x', '/v2/openapi.json'];
      for (const path of paths) {
        for (const method of ['PUT', 'PATCH', 'TRACE', 'OPTIONS', 'PROPFIND', 'FOO', 'get']) {
          await probe(cls, spec(method, path, key), { siteId: sites.fuzz.id, allowed: [400, 404, 405, 501], what: '' });
        }
      }
      const odd = [
        '/v2/topics?%00',
        '/v2/topics?a=%ud800',
        '/v2/campaigns?limit=1000&__proto__[x]=1',
        '/v2/topics/%2e%2e/%2e%2e/metrics',
        '/v2/../metrics',
        '/v2/%2e%2e/readyz',
        '//v2/topics',
        '/v2/topics%00',
        '/v2/topics;x=1',
        '/v2/' + 'a/'.repeat(3000),
        '*',
        'http://127.0.0.1/v2/topics',
        'http://evil.example/v2/topics',
      ];
      for (const path of odd) await probe(cls, spec('GET', path, key), { siteId: sites.fuzz.id, allowed: [200, 400, 404, 405, 414, 431], what: '' });
      // Operational endpoints are not on the public port.
      for (const path of ['/metrics', '/readyz', '/v2/metrics', '/metrics?x=1']) await probe(cls, { method: 'GET', path }, { siteId: sites.fuzz.id, allowed: [404], what: '(ops endpoint on the public port)' });
      // A raw byte path: UTF-8 of an RTL override and invalid bytes.
      await probe(cls, { method: 'GET', path: Buffer.concat([Buffer.from('/v2/campaign/'), Buffer.from([0xe2, 0x80, 0xae, 0xff, 0xc0])]), headers: [['Authorization', key]] }, { siteId: sites.fuzz.id, allowed: [400, 404], what: 'raw bytes' });
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
