// Operators rename, merge and delete a site's topics: every subscriber's topics change in one
// statement and the audience counters (kept by triggers) stay equal to a recount. Also through
// the operator CLI as a real process.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../../../scripts/lib/local-env.js';
import { freshDatabase } from '../../../../test/support/postgres.js';
import { DeliveryOperatorError } from '../../src/errors.js';
import { migrateDeliverySchema } from '../../src/app.js';
import { createDeliveryOperators } from '../../src/operators.js';
import { createTopicMaintenance, type TopicMaintenance } from '../../src/audience/topic-maintenance.js';
import { createPool, type Pool } from '@webpush/shared/db.js';
import {
  browserKeys,
  bruteForceGroups,
  bruteForceNames,
  listTopics,
  newSite,
  pushEndpoint,
  request,
  sortedEntries,
  startTestDelivery,
  storedGroups,
  storedNames,
  type TestDelivery,
} from '../support.js';

const run = promisify(execFile);

describe('delivery: topic maintenance', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let topics: TopicMaintenance;

  const subscribe = async (site: { publicId: string }, names: string[]) => {
    const res = await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
      body: { subscription: { endpoint: pushEndpoint(), keys: browserKeys() }, topics: names },
    });
    expect(res.status).to.equal(201);
    return res.body.id as string;
  };
  const topicsOf = async (id: string): Promise<string[]> =>
    (await t.pool.query('SELECT topics FROM delivery.subscribers WHERE public_id = $1', [id])).rows[0].topics;
  const expectCountersExact = async (siteId: string) => {
    expect(sortedEntries(await storedNames(t.pool, siteId))).to.deep.equal(sortedEntries(await bruteForceNames(t.pool, siteId)));
    expect(sortedEntries(await storedGroups(t.pool, siteId))).to.deep.equal(sortedEntries(await bruteForceGroups(t.pool, siteId)));
  };
  const rejection = async (promise: Promise<unknown>): Promise<Error> => {
    try {
      await promise;
    } catch (err) {
      return err as Error;
    }
    throw new Error('expected a rejection');
  };

  before(async () => {
    t = await startTestDelivery('topic_maint', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    topics = createTopicMaintenance(t.pool);
  });
  after(async () => {
    await t?.stop();
  });

  it('rename moves every subscriber (active or not) to the new name; other sites are untouched', async () => {
    const site = await newSite(t);
    const other = await newSite(t);
    const a = await subscribe(site, ['futebol', 'news']);
    const b = await subscribe(site, ['futebol']);
    const c = await subscribe(site, ['news']);
    const gone = await subscribe(site, ['futebol']);
    await t.pool.query('UPDATE delivery.subscribers SET active = false WHERE public_id = $1', [gone]);
    const foreign = await subscribe(other, ['futebol']);

    const result = await topics.renameTopic({ siteId: site.siteId, from: 'Futebol', to: 'Football' });
    expect(result).to.deep.equal({ subscribers: 3 });
    expect(await topicsOf(a)).to.deep.equal(['football', 'news']);
    expect(await topicsOf(b)).to.deep.equal(['football']);
    expect(await topicsOf(c)).to.deep.equal(['news']);
    expect(await topicsOf(gone)).to.deep.equal(['football']);
    expect(await topicsOf(foreign)).to.deep.equal(['futebol']);
    expect(await listTopics(t, site.siteId)).to.deep.equal([
      { name: 'football', users: 2 },
      { name: 'news', users: 2 },
    ]);
    await expectCountersExact(site.siteId);
    await expectCountersExact(other.siteId);
  });

  it('rename is refused when the new name is in use, the old one has no subscriber, or a name is invalid', async () => {
    const site = await newSite(t);
    await subscribe(site, ['a', 'b']);
    const cases: [() => Promise<unknown>, RegExp][] = [
      [() => topics.renameTopic({ siteId: site.siteId, from: 'a', to: 'B' }), /topic "b" already exists on this site; use "topics merge"/],
      [() => topics.renameTopic({ siteId: site.siteId, from: 'nope', to: 'c' }), /topic "nope" has no subscribers on this site/],
      [() => topics.renameTopic({ siteId: site.siteId, from: 'a', to: 'a' }), /already has that name/],
      [() => topics.renameTopic({ siteId: site.siteId, from: 'a', to: 'country__br' }), /new name "country__br" is not a topic name/],
      [() => topics.renameTopic({ siteId: site.siteId, from: 'a', to: 'x'.repeat(65) }), /is not a topic name/],
      [() => topics.renameTopic({ siteId: '00000000-0000-4000-8000-000000000000', from: 'a', to: 'c' }), /is not registered with the delivery service/],
    ];
    for (const [promise, message] of cases) {
      const err = await rejection(promise());
      expect(err).to.be.instanceOf(DeliveryOperatorError);
      expect(err.message).to.match(message);
    }
    expect((await listTopics(t, site.siteId)).map((x) => x.name).sort()).to.deep.equal(['a', 'b']);
  });

  it('merge replaces several topics by one, counting a subscriber who had several of them once', async () => {
    const site = await newSite(t);
    const both = await subscribe(site, ['soccer', 'futebol', 'news']);
    const one = await subscribe(site, ['soccer']);
    const target = await subscribe(site, ['football', 'futebol']);
    const none = await subscribe(site, ['news']);

    const result = await topics.mergeTopics({ siteId: site.siteId, from: ['soccer', 'FUTEBOL', 'football'], into: 'football' });
    expect(result).to.deep.equal({ subscribers: 3 });
    expect(await topicsOf(both)).to.deep.equal(['football', 'news']);
    expect(await topicsOf(one)).to.deep.equal(['football']);
    expect(await topicsOf(target)).to.deep.equal(['football']);
    expect(await topicsOf(none)).to.deep.equal(['news']);
    expect(await listTopics(t, site.siteId)).to.deep.equal([
      { name: 'football', users: 3 },
      { name: 'news', users: 2 },
    ]);
    await expectCountersExact(site.siteId);

    const err = await rejection(topics.mergeTopics({ siteId: site.siteId, from: ['football'], into: 'football' }));
    expect(err.message).to.equal('name at least one topic to merge other than the target');
  });

  it('delete removes the topic from every subscriber; they stay subscribed', async () => {
    const site = await newSite(t);
    const a = await subscribe(site, ['old', 'news']);
    const b = await subscribe(site, ['old']);
    const result = await topics.deleteTopic({ siteId: site.siteId, topic: 'OLD' });
    expect(result).to.deep.equal({ subscribers: 2 });
    expect(await topicsOf(a)).to.deep.equal(['news']);
    expect(await topicsOf(b)).to.deep.equal([]);
    const active = await t.pool.query('SELECT count(*)::int AS n FROM delivery.subscribers WHERE site_id = $1 AND active', [site.siteId]);
    expect(active.rows[0].n).to.equal(2);
    expect(await listTopics(t, site.siteId)).to.deep.equal([{ name: 'news', users: 1 }]);
    await expectCountersExact(site.siteId);
    expect(await topics.deleteTopic({ siteId: site.siteId, topic: 'old' })).to.deep.equal({ subscribers: 0 });
  });

  describe('operator CLI', () => {
    let db: { url: string; drop(): Promise<void> };
    let pool: Pool;
    const env = () => ({
      ...process.env,
      DATABASE_URL: db.url,
      VAPID_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CURSOR_SECRET: randomBytes(32).toString('base64'),
    });
    const cli = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
      try {
        const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), ...args], { cwd: ROOT, env: env(), timeout: 60_000 });
        return { code: 0, stdout, stderr };
      } catch (err) {
        const e = err as { code?: number; stdout?: string; stderr?: string };
        return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
      }
    };
    const topicCounts = async (siteId: string) =>
      (await pool.query(`SELECT name, users::int AS users FROM delivery.audience_names WHERE site_id = $1 AND users > 0 AND name NOT LIKE 'country\\_\\_%' ORDER BY name`, [siteId])).rows;

    before(async () => {
      db = await freshDatabase('topic_cli');
      pool = createPool(db.url, { max: 2 });
    });
    after(async () => {
      await pool?.end();
      await db?.drop();
    });

    it('topics rename, merge and delete work on a site named by its public id, and bad input exits 2', async () => {
      // The CLI's topic commands are database tools of this service: a site it knows is all they need.
      await migrateDeliverySchema(pool);
      const site = { id: randomUUID(), publicId: 'pub_news_site' };
      await createDeliveryOperators(pool, randomBytes(32)).registerSite({ siteId: site.id, publicId: site.publicId });
      const seeded = await cli('subscribers', 'seed', site.id, '--count', '30', '--topics', 'futebol,soccer,politica', '--countries', 'br', '--per-subscriber', '2', '--json');
      expect(seeded.code, seeded.stderr).to.equal(0);
      const before = await topicCounts(site.id);

      const help = await cli('--help');
      expect(help.stdout).to.include('topics rename <site> <topic> <new-name>').and.include('topics merge').and.include('topics delete');

      const renamed = await cli('topics', 'rename', site.publicId, 'politica', 'politics', '--json');
      expect(renamed.code, renamed.stderr).to.equal(0);
      const politica = before.find((r) => r.name === 'politica')!.users;
      expect(JSON.parse(renamed.stdout)).to.deep.equal({ siteId: site.id, subscribers: politica });

      const merged = await cli('topics', 'merge', site.id, 'futebol,soccer', 'football');
      expect(merged.code, merged.stderr).to.equal(0);
      expect(merged.stdout).to.match(/^topics merged on \d+ subscriber\(s\)/);

      const afterMerge = await topicCounts(site.id);
      const football = afterMerge.find((r) => r.name === 'football')!.users;
      const recount = await pool.query(`SELECT count(*)::int AS n FROM delivery.subscribers WHERE site_id = $1 AND active AND 'football' = ANY(topics)`, [site.id]);
      expect(football).to.equal(recount.rows[0].n);
      expect(afterMerge.map((r) => r.name)).to.deep.equal(['football', 'politics']);

      const deleted = await cli('topics', 'delete', site.id, 'politics', '--json');
      expect(JSON.parse(deleted.stdout)).to.deep.equal({ siteId: site.id, subscribers: politica });
      expect((await topicCounts(site.id)).map((r) => r.name)).to.deep.equal(['football']);

      const clash = await cli('topics', 'rename', site.id, 'football', 'football');
      expect(clash.code).to.equal(2);
      expect(clash.stderr).to.equal('error: topic "football" already has that name\n');
      const missing = await cli('topics', 'merge', site.id);
      expect(missing.code).to.equal(2);
      expect(missing.stderr).to.include('usage: topics merge');
      const unknownSite = await cli('topics', 'delete', 'pub_nope', 'x');
      expect(unknownSite.code).to.equal(2);
      expect(unknownSite.stderr).to.equal('error: site "pub_nope" does not exist\n');
    });
  });
});
