// The delivery log's statements against a model, property-based: random sequences of claims
// (fresh rows, and rows of leases no longer live taken over), 'sending' marks and outcome
// batches (mixed outcomes, repeated batches, rows of other leases) on one campaign, run against
// a real Postgres. Each statement's answer must be the model's, and at the end every row must
// be the model's — final at most once, with the outcome of the write that made it final — the
// run's counters must equal the rows, and an expired push's subscription must be inactive.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import pg from 'pg';
import { bigintArray } from '@webpush/shared/db.js';
import type { FailureClass } from '@webpush/contracts/messages.js';
import { claim, markSending, recordOutcomes, unfinishedRows, type Outcome } from '../../src/sending/delivery-log-store.js';
import { newSite, startTestDelivery, type TestDelivery } from '../support.js';

const SUBSCRIBERS = 24;
const LEASES = 3;
const FINAL = ['sent', 'failed', 'expired'] as const;
const CLASSES: (FailureClass | null)[] = ['rejected', 'unauthorized', 'unreachable', 'refused', null];

interface Row {
  state: 'claimed' | 'sending' | 'sent' | 'failed' | 'expired';
  lease: number;
  ambiguous: number;
  status: number | null;
  reason: string | null;
  /** The class the run counted this row under (failed rows only). */
  failureClass: FailureClass | null;
}

type Op =
  | { kind: 'claim'; lease: number; ids: number[]; live: boolean[] }
  | { kind: 'mark'; lease: number; ids: number[] }
  | { kind: 'record'; lease: number; outcomes: { id: number; outcome: (typeof FINAL)[number]; status: number | null; reason: string | null; failureClass: FailureClass | null; ambiguous: number }[] };

const idx = fc.integer({ min: 0, max: SUBSCRIBERS - 1 });
const lease = fc.integer({ min: 0, max: LEASES - 1 });
const ids = fc.uniqueArray(idx, { minLength: 0, maxLength: 12 });
// Outcomes drawn from few values, so batches mix a common outcome with a few others.
const outcome = fc.record({
  id: idx,
  outcome: fc.constantFrom(...FINAL, 'sent', 'sent'),
  status: fc.constantFrom(201, 201, 410, 400, null),
  reason: fc.constantFrom(null, null, 'gone', 'gave up after 3 attempts: 503', "it's \"quoted\", ünïcode"),
  failureClass: fc.constantFrom(...CLASSES),
  ambiguous: fc.constantFrom(0, 0, 0, 1, 2),
});
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('claim' as const), lease, ids, live: fc.array(fc.boolean(), { minLength: LEASES, maxLength: LEASES }) }),
  fc.record({ kind: fc.constant('mark' as const), lease, ids }),
  fc.record({ kind: fc.constant('record' as const), lease, outcomes: fc.uniqueArray(outcome, { selector: (o) => o.id, minLength: 0, maxLength: 14 }) }),
);

describe('sending: delivery-log statements against a model', function () {
  this.timeout(180_000);
  let t: TestDelivery;
  let siteId: string;

  before(async () => {
    t = await startTestDelivery('log_statements');
    siteId = (await newSite(t)).siteId;
  });
  after(async () => {
    await t?.stop();
  });

  it('when claims, marks and outcome batches run in any order, then each answers as the model does, every row is final at most once and the counters equal the rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), fc.array(fc.boolean(), { minLength: SUBSCRIBERS, maxLength: SUBSCRIBERS }), async (ops, inactive) => {
        const { rows: subs } = await t.pool.query(
          `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, active)
           SELECT $1, 'https://push.example/' || gen_random_uuid(), 'k', 'a', 'country__br', ARRAY['all'], NOT a FROM unnest($2::boolean[]) a
           RETURNING id::text`,
          [siteId, inactive],
        );
        const sub = subs.map((r) => r.id as string);
        const indexOf = new Map(sub.map((id, i) => [id, i]));
        const campaignId = randomUUID();
        await t.pool.query(`INSERT INTO delivery.campaign_runs (campaign_id, site_id, job, state) VALUES ($1, $2, '{}', 'sending')`, [campaignId, siteId]);
        const instanceId = randomUUID();
        await t.pool.query(`INSERT INTO delivery.instances (id) VALUES ($1)`, [instanceId]);
        const leases = Array.from({ length: LEASES }, () => randomUUID());
        for (const l of leases) await t.pool.query(`INSERT INTO delivery.claim_leases (id, instance_id) VALUES ($1, $2)`, [l, instanceId]);

        const model = new Map<number, Row>();
        const active = inactive.map((a) => !a);
        let runAmbiguous = 0;
        const notFinal = (r: Row | undefined): r is Row => r !== undefined && (r.state === 'claimed' || r.state === 'sending');
        const sorted = (xs: Iterable<number>) => [...xs].sort((a, b) => a - b);

        for (const o of ops) {
          if (o.kind === 'claim') {
            const live = leases.filter((_, i) => i === o.lease || o.live[i]);
            const got = await claim(t.pool, campaignId, o.ids.map((i) => sub[i]), { instanceId, lease: leases[o.lease], liveLeases: live }, 30);
            const expected: number[] = [];
            let ambiguous = 0;
            for (const i of o.ids) {
              const r = model.get(i);
              if (r === undefined && active[i]) {
                model.set(i, { state: 'claimed', lease: o.lease, ambiguous: 0, status: null, reason: null, failureClass: null });
                expected.push(i);
              } else if (notFinal(r) && !(r.lease === o.lease || o.live[r.lease])) {
                if (r.state === 'sending') (r.ambiguous += 1), (ambiguous += 1);
                r.state = 'claimed';
                r.lease = o.lease;
                expected.push(i);
              }
            }
            runAmbiguous += ambiguous;
            expect(sorted(got.ids.map((id) => indexOf.get(id)!)), 'claimed').to.deep.equal(sorted(expected));
            expect(got.ambiguous, 'taken over while sending').to.equal(ambiguous);
          } else if (o.kind === 'mark') {
            const marked = await markSending(t.pool, campaignId, leases[o.lease], o.ids.map((i) => sub[i]));
            const expected = o.ids.filter((i) => {
              const r = model.get(i);
              return notFinal(r) && r.lease === o.lease;
            });
            for (const i of expected) model.get(i)!.state = 'sending';
            expect(sorted([...marked].map((id) => indexOf.get(id)!)), 'marked').to.deep.equal(sorted(expected));
          } else {
            const batch: Outcome[] = o.outcomes.map((x) => ({ ...x, subscriberId: sub[x.id] }));
            await recordOutcomes(t.pool, campaignId, leases[o.lease], batch);
            for (const x of o.outcomes) {
              const r = model.get(x.id);
              if (!notFinal(r) || r.lease !== o.lease) continue;
              Object.assign(r, { state: x.outcome, status: x.status, reason: x.reason, failureClass: x.outcome === 'failed' ? x.failureClass : null });
              r.ambiguous += x.ambiguous;
              runAmbiguous += x.ambiguous;
              if (x.outcome === 'expired') active[x.id] = false;
            }
          }
        }

        const { rows } = await t.pool.query(
          `SELECT subscriber_id::text AS id, state, lease, ambiguous, status, reason FROM delivery.delivery_log WHERE campaign_id = $1`,
          [campaignId],
        );
        const stored = new Map(rows.map((r) => [indexOf.get(r.id)!, { state: r.state, lease: leases.indexOf(r.lease), ambiguous: r.ambiguous, status: r.status, reason: r.reason }]));
        const expected = new Map([...model].map(([i, r]) => [i, { state: r.state, lease: r.lease, ambiguous: r.ambiguous, status: r.status, reason: r.reason }]));
        expect(stored).to.deep.equal(expected);

        const run = (
          await t.pool.query(
            `SELECT sent::int, failed::int, expired::int, ambiguous::int, failed_rejected::int AS rejected, failed_unauthorized::int AS unauthorized,
                    failed_unreachable::int AS unreachable, failed_refused::int AS refused
               FROM delivery.campaign_runs WHERE campaign_id = $1`,
            [campaignId],
          )
        ).rows[0];
        const all = [...model.values()];
        const count = (f: (r: Row) => boolean) => all.filter(f).length;
        expect(run).to.deep.equal({
          sent: count((r) => r.state === 'sent'),
          failed: count((r) => r.state === 'failed'),
          expired: count((r) => r.state === 'expired'),
          ambiguous: all.reduce((a, r) => a + r.ambiguous, 0),
          rejected: count((r) => r.state === 'failed' && r.failureClass === 'rejected'),
          unauthorized: count((r) => r.state === 'failed' && r.failureClass === 'unauthorized'),
          unreachable: count((r) => r.state === 'failed' && r.failureClass === 'unreachable'),
          refused: count((r) => r.state === 'failed' && r.failureClass === 'refused'),
        });
        expect(run.ambiguous).to.equal(runAmbiguous);

        const { rows: act } = await t.pool.query(`SELECT id::text, active FROM delivery.subscribers WHERE id = ANY($1::bigint[])`, [sub]);
        expect(new Map(act.map((r) => [indexOf.get(r.id)!, r.active]))).to.deep.equal(new Map(active.map((a, i) => [i, a])));
        expect(await unfinishedRows(t.pool, campaignId, sub)).to.equal(count((r) => r.state === 'claimed' || r.state === 'sending'));
      }),
      { numRuns: 60 },
    );
  });

  it('property: ids passed as an array literal reach Postgres as the same bigint[]; anything but an integer is refused before it', async () => {
    const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String);
    await fc.assert(
      fc.asyncProperty(fc.array(int64, { maxLength: 300 }), async (ids) => {
        const { rows } = await t.pool.query(`SELECT ($1::bigint[])::text[] AS ids`, [bigintArray(ids)]);
        expect(rows[0].ids).to.deep.equal(ids.map((id) => BigInt(id).toString()));
      }),
      { numRuns: 50 },
    );
    // What would change the literal's meaning (another element, a NULL, a nested array) or is no integer.
    fc.assert(
      fc.property(fc.array(int64, { maxLength: 5 }), fc.oneof(fc.constantFrom('1},{2', '1,2', 'NULL', '', ' 1', '1 ', '1e3', '0x1f', '+1', '١', '{1}', '"1"'), fc.string().filter((x) => !/^-?\d{1,19}$/.test(x))), (ids, bad) => {
        expect(() => bigintArray([...ids, bad])).to.throw(TypeError, 'not an integer id');
      }),
    );
  });

  for (const other of ['commits', 'rolls back'] as const) {
    it(`when another claim of the same fresh rows is in progress and ${other === 'commits' ? 'commits first, then the claim is made again and leaves its rows to it' : 'rolls back, then the claim takes every row'}`, async () => {
      const { rows } = await t.pool.query(
        `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics)
         SELECT $1, 'https://push.example/' || gen_random_uuid(), 'k', 'a', 'country__br', ARRAY['all'] FROM generate_series(1, 5)
         RETURNING id::text`,
        [siteId],
      );
      const ids = rows.map((r) => r.id as string);
      const campaignId = randomUUID();
      const [mine, theirs] = [randomUUID(), randomUUID()];
      await t.pool.query(`INSERT INTO delivery.campaign_runs (campaign_id, site_id, job, state) VALUES ($1, $2, '{}', 'sending')`, [campaignId, siteId]);
      // The other claimant is a live instance with a live lease: its rows are not taken over.
      await t.pool.query(`INSERT INTO delivery.instances (id) VALUES ($1)`, [theirs]);
      await t.pool.query(`INSERT INTO delivery.claim_leases (id, instance_id) VALUES ($1, $1)`, [theirs]);
      const holder = new pg.Client({ connectionString: t.config.databaseUrl });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query(`INSERT INTO delivery.delivery_log (campaign_id, subscriber_id, state, claimed_by, lease) VALUES ($1, $2, 'claimed', $3, $3)`, [
          campaignId,
          ids[2],
          theirs,
        ]);
        const claiming = claim(t.pool, campaignId, ids, { instanceId: mine, lease: mine, liveLeases: [mine] }, 30);
        // The claim waits for the uncommitted row of the other.
        for (let i = 0; i < 200; i++) {
          const { rows: waiting } = await t.pool.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH fresh AS%'`);
          if (waiting.length > 0) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        await holder.query(other === 'commits' ? 'COMMIT' : 'ROLLBACK');
        const got = await claiming;
        const expected = other === 'commits' ? ids.filter((id) => id !== ids[2]) : ids;
        expect([...got.ids].sort(), 'claimed').to.deep.equal([...expected].sort());
        const { rows: log } = await t.pool.query(`SELECT subscriber_id::text AS id, lease FROM delivery.delivery_log WHERE campaign_id = $1`, [campaignId]);
        expect(new Map(log.map((r) => [r.id, r.lease]))).to.deep.equal(new Map(ids.map((id) => [id, other === 'commits' && id === ids[2] ? theirs : mine])));
      } finally {
        await holder.end();
      }
    });
  }
});
