// Class 29: a best-time campaign's planned distribution (POST /v2/campaign/plan-preview; issue 40,
// docs/api-decisions.md "Best time"), attacked with the site's API key: hostile bodies (sendTime,
// its within and holdout, the audience, segment and schedule, whole bodies) → 200 or 400 (413 for
// the large), never 5xx, and nothing stored either way; a 200 only for a valid sendTime, its
// answer whole — one hour per hour of the window, each a UTC hour, the hours and the holdout
// adding up to the audience, shares in 0–100; the bystander's subscribers never counted.
import fc from 'fast-check';
import { hostileString, hostileValue, RAW_BODIES, toJsonText } from '../support/hostile.js';
import { fuzz, probe } from '../support/probe.js';
import { assertNoViolations, endOfClassChecks, getCtx, jsonRequest, show, trackViolations, violation } from '../support/suite.js';

export const CLASS_BEST_TIME = '29 best time';
const cls = CLASS_BEST_TIME;
const PATH = '/v2/campaign/plan-preview';
const WITHIN = /^([1-9][0-9]?)h$/;

/** The site's campaigns as a digest: a preview stores none, whatever it answers. */
async function campaigns(siteId: string): Promise<string> {
  const { rows } = await getCtx().db.query(`SELECT count(*)::int AS n, coalesce(max(created_at)::text, '') AS last FROM campaign.campaigns WHERE site_id = $1`, [siteId]);
  return `${rows[0].n}:${rows[0].last}`;
}

/** Whether `sendTime` is one the create takes: mode bestTime, within 1h–72h, holdout a whole 0–50 (both optional). */
function validSendTime(t: unknown): boolean {
  if (t === null || typeof t !== 'object' || Array.isArray(t)) return false;
  const o = t as Record<string, unknown>;
  if (Object.keys(o).some((k) => !['mode', 'within', 'holdout'].includes(k))) return false;
  if (o.mode !== 'bestTime') return false;
  if (o.within !== undefined && !(typeof o.within === 'string' && WITHIN.test(o.within) && Number(o.within.slice(0, -1)) <= 72)) return false;
  if (o.holdout !== undefined && !(typeof o.holdout === 'number' && Number.isInteger(o.holdout) && o.holdout >= 0 && o.holdout <= 50)) return false;
  return true;
}

/** A 200's answer as the contract describes it, or what is wrong with it. */
function answerProblem(body: any, sendTime: Record<string, unknown>): string | null {
  if (!body || typeof body !== 'object') return 'no object';
  const hours = Number(String(sendTime.within ?? '24h').slice(0, -1));
  if (!Array.isArray(body.byHour) || body.byHour.length !== hours) return `byHour has ${body.byHour?.length} entries for ${hours} hours`;
  if (!Number.isInteger(body.totalUsers) || body.totalUsers < 0) return `totalUsers ${body.totalUsers}`;
  const sum = body.byHour.reduce((n: number, h: any) => n + h.users, 0) + body.holdout?.users;
  if (sum !== body.totalUsers) return `the hours and the holdout add up to ${sum}, not ${body.totalUsers}`;
  for (const h of body.byHour) {
    if (!(Number.isInteger(h.hour) && h.hour >= 0 && h.hour <= 23)) return `an hour ${h.hour}`;
    if (!(h.share >= 0 && h.share <= 100)) return `a share ${h.share}`;
    if (new Date(h.sendAt).getUTCHours() !== h.hour) return `${h.sendAt} is not hour ${h.hour}`;
  }
  if (typeof body.sampled !== 'boolean' || !Number.isInteger(body.sampleSize)) return 'sampled or sampleSize';
  return null;
}

export function registerBestTime(): void {
  describe(CLASS_BEST_TIME, function () {
    this.timeout(120_000);
    trackViolations(cls);

    it('hostile plan-preview bodies → 200 or 400, never 5xx, nothing stored; 200 only for a valid sendTime, its answer whole', async () => {
      const { fuzz: site } = getCtx().sites;
      const sendTime = fc.oneof(
        { weight: 3, arbitrary: fc.record(
          {
            // Mostly valid parts, so that the answers of 200 are checked too.
            mode: fc.oneof({ weight: 4, arbitrary: fc.constant<unknown>('bestTime') }, fc.constantFrom<unknown>('besttime', 'now', ''), hostileValue),
            within: fc.oneof({ weight: 3, arbitrary: fc.constantFrom<unknown>('1h', '5h', '24h', '72h') }, fc.constantFrom<unknown>('73h', '0h', '01h', '24', '24H', ' 24h', '1.5h'), hostileValue),
            holdout: fc.oneof({ weight: 3, arbitrary: fc.constantFrom<unknown>(0, 10, 50) }, fc.constantFrom<unknown>(51, -1, 2.5, '10'), hostileValue),
          },
          { requiredKeys: ['mode'] },
        ) },
        // Any value, objects with unknown fields among them.
        hostileValue,
      );
      const body = fc.record(
        {
          topics: fc.oneof({ weight: 3, arbitrary: fc.constant<unknown>(['news']) }, fc.array(hostileString, { maxLength: 3 }), hostileValue),
          countries: fc.oneof(fc.constant<unknown>(['br']), hostileValue),
          segment: fc.oneof(fc.constant<unknown>({ browsers: ['chrome'] }), fc.constant<unknown>({ engagedWithinDays: 7 }), hostileValue),
          sendTime,
          scheduleMode: fc.oneof(fc.constantFrom<unknown>('now', 'scheduled'), hostileValue),
          scheduleDate: fc.oneof(fc.constantFrom<unknown>('2031-01-01T10:20:00Z', '2020-01-01T00:00:00Z', '9999-12-31T23:59:59Z'), hostileValue),
          localTime: fc.oneof(fc.constant<unknown>('09:00'), hostileValue),
        },
        { requiredKeys: ['sendTime'] },
      );
      // Half the bodies only an audience and a sendTime, so that answers of 200 are checked too.
      const bodies = fc.oneof(fc.record({ topics: fc.constant<unknown>(['news']), sendTime }), body);
      await fuzz(bodies, { numRuns: 250, timeMs: 15_000, seedOffset: 290 }, async (b) => {
        const before = await campaigns(site.id);
        const r = await probe(cls, { ...jsonRequest('POST', PATH, undefined, site.apiKey), body: toJsonText(b) }, { siteId: site.id, allowed: [200, 400, 413], what: show(b, 200) });
        if ((await campaigns(site.id)) !== before) violation(cls, `${show(b, 120)}: a preview stored a campaign (answered ${r.status})`);
        if (r.status === 200) {
          if (!validSendTime(b.sendTime)) violation(cls, `sendTime ${show(b.sendTime, 100)} answered 200`);
          const localTime = (b as { localTime?: unknown }).localTime;
          if (localTime !== undefined && localTime !== null) violation(cls, `localTime ${show(localTime, 60)} with sendTime answered 200`);
          const problem = answerProblem(r.body, b.sendTime as Record<string, unknown>);
          if (problem) violation(cls, `${show(b, 120)}: ${problem}`);
        }
        if (r.status === 400 && typeof r.body?.message !== 'string') violation(cls, `${show(b, 120)}: a 400 without a message`);
      });
      for (const raw of RAW_BODIES) {
        await probe(cls, { ...jsonRequest('POST', PATH, undefined, site.apiKey), body: raw.body }, { siteId: site.id, allowed: [400, 413], what: `(${raw.label})` });
      }
      assertNoViolations(cls);
    });

    it("the bystander's subscribers are never counted in the fuzzed site's plan", async () => {
      const { fuzz: site, other } = getCtx().sites;
      const own = async (siteId: string) =>
        (await getCtx().db.query(`SELECT count(*)::int AS n FROM delivery.subscribers WHERE site_id = $1 AND active AND 'news' = ANY(topics)`, [siteId])).rows[0].n as number;
      const body = { topics: ['news'], sendTime: { mode: 'bestTime', within: '6h', holdout: 0 } };
      const mine = await probe(cls, jsonRequest('POST', PATH, body, site.apiKey), { siteId: site.id, allowed: [200], what: '(news, the fuzzed site)' });
      if (mine.body?.totalUsers !== (await own(site.id))) violation(cls, `the fuzzed site's plan counts ${mine.body?.totalUsers}, it has ${await own(site.id)}`);
      const theirs = await probe(cls, jsonRequest('POST', PATH, body, other.apiKey), { siteId: other.id, allowed: [200], what: '(news, the bystander)' });
      if (theirs.body?.totalUsers !== (await own(other.id))) violation(cls, `the bystander's plan counts ${theirs.body?.totalUsers}, it has ${await own(other.id)}`);
      await endOfClassChecks(cls);
      assertNoViolations(cls);
    });
  });
}
