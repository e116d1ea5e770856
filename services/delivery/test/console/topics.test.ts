// Topic maintenance as the console asks for it (delivery.v1.ConsoleData RenameTopic, MergeTopics,
// DeleteTopic): the changes and the counts that follow them, every refusal as INVALID_ARGUMENT
// with the customer's message (never INTERNAL), an unknown site NOT_FOUND, another site's topics
// untouched; and the service answering the gateway only.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { loadConsoleDataProto } from '@webpush/shared/grpc.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';
import { INTERNAL_TOKENS } from '../../../../test/support/internal-tokens.js';
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
import { consoleCalls, refusal } from './calls.js';

const NAME_RULE = '1 to 64 characters, not starting with "country__"';

describe('console data: topic maintenance', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let calls: ReturnType<typeof consoleCalls>;

  before(async () => {
    t = await startTestDelivery('console_topics', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    calls = consoleCalls(t.consoleData);
  });
  after(async () => {
    await t?.stop();
  });

  const subscribe = async (site: { publicId: string }, topics: string[]) => {
    const res = await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint: pushEndpoint(), keys: browserKeys() }, topics } });
    expect(res.status).to.equal(201);
  };
  const topicsOf = async (siteId: string) => (await listTopics(t, siteId)).map((e) => [e.name, e.users]);
  const expectCountersExact = async (siteId: string) => {
    expect(sortedEntries(await storedNames(t.pool, siteId))).to.deep.equal(sortedEntries(await bruteForceNames(t.pool, siteId)));
    expect(sortedEntries(await storedGroups(t.pool, siteId))).to.deep.equal(sortedEntries(await bruteForceGroups(t.pool, siteId)));
  };

  it('renames, merges and deletes topics; the topic counts follow at once and the daily counts do not move', async () => {
    const site = await newSite(t);
    await subscribe(site, ['futebol', 'news']);
    await subscribe(site, ['futebol']);
    await subscribe(site, ['soccer', 'politics']);
    await subscribe(site, ['old']);
    const dailyBefore = (await calls.daily(site.siteId, 2)).days;

    expect(await calls.rename(site.siteId, ' Futebol ', 'Football')).to.deep.equal({ subscribers: 2 });
    expect(await topicsOf(site.siteId)).to.deep.equal([['football', 2], ['news', 1], ['old', 1], ['politics', 1], ['soccer', 1]]);
    expect(await calls.merge(site.siteId, ['soccer', 'FOOTBALL'], 'sport')).to.deep.equal({ subscribers: 3 });
    expect(await topicsOf(site.siteId)).to.deep.equal([['sport', 3], ['news', 1], ['old', 1], ['politics', 1]]);
    expect(await calls.remove(site.siteId, 'OLD')).to.deep.equal({ subscribers: 1 });
    expect(await topicsOf(site.siteId)).to.deep.equal([['sport', 3], ['news', 1], ['politics', 1]]);
    await expectCountersExact(site.siteId);
    expect((await calls.daily(site.siteId, 2)).days).to.deep.equal(dailyBefore);
  });

  it('refuses every wrong request with the reason, as INVALID_ARGUMENT, and changes nothing', async () => {
    const site = await newSite(t);
    await subscribe(site, ['a', 'b']);
    const invalid = (details: string) => ({ code: grpc.status.INVALID_ARGUMENT, details });
    const cases: [string, () => Promise<unknown>, string][] = [
      ['rename to a name in use', () => calls.rename(site.siteId, 'a', 'B'), 'Topic "b" already exists; merge the topics instead'],
      ['rename an unknown topic', () => calls.rename(site.siteId, 'nope', 'c'), 'Topic "nope" not found'],
      ['rename to the same name', () => calls.rename(site.siteId, 'a', ' A'), 'Topic "a" already has that name'],
      ['rename to a country', () => calls.rename(site.siteId, 'a', 'country__br'), `"country__br" is not a valid topic name: ${NAME_RULE}`],
      ['rename to a long name', () => calls.rename(site.siteId, 'a', 'x'.repeat(65)), `"${'x'.repeat(65)}" is not a valid topic name: ${NAME_RULE}`],
      ['rename to nothing', () => calls.rename(site.siteId, 'a', ''), `"" is not a valid topic name: ${NAME_RULE}`],
      ['rename to blanks', () => calls.rename(site.siteId, 'a', '   '), `"   " is not a valid topic name: ${NAME_RULE}`],
      ['rename from a name with a NUL', () => calls.rename(site.siteId, 'a\u0000b', 'c'), `"a\\u0000b" is not a valid topic name: ${NAME_RULE}`],
      ['rename to a name with a tab', () => calls.rename(site.siteId, 'a', 'x\ty'), `"x\\u0009y" is not a valid topic name: ${NAME_RULE}`],
      ['rename to a huge name', () => calls.rename(site.siteId, 'a', 'y'.repeat(100_000)), `"${'y'.repeat(73)}…" is not a valid topic name: ${NAME_RULE}`],
      ['merge nothing', () => calls.merge(site.siteId, [], 'a'), 'Name at least one topic to merge other than the target'],
      ['merge a topic into itself', () => calls.merge(site.siteId, ['a', 'A'], 'a'), 'Name at least one topic to merge other than the target'],
      ['merge an unknown topic', () => calls.merge(site.siteId, ['a', 'ghost'], 'c'), 'Topic "ghost" not found'],
      ['merge unknown topics', () => calls.merge(site.siteId, ['phantom', 'ghost'], 'c'), 'Topics "ghost", "phantom" not found'],
      ['merge a bad name', () => calls.merge(site.siteId, ['a', 'country__pt'], 'c'), `"country__pt" is not a valid topic name: ${NAME_RULE}`],
      ['merge into a bad name', () => calls.merge(site.siteId, ['a'], ''), `"" is not a valid topic name: ${NAME_RULE}`],
      ['merge too many', () => calls.merge(site.siteId, Array.from({ length: 101 }, (_, i) => `t${i}`), 'a'), 'Merge at most 100 topics at once'],
      ['delete an unknown topic', () => calls.remove(site.siteId, 'ghost'), 'Topic "ghost" not found'],
      ['delete a bad name', () => calls.remove(site.siteId, 'country__br'), `"country__br" is not a valid topic name: ${NAME_RULE}`],
      ['delete nothing', () => calls.remove(site.siteId, ''), `"" is not a valid topic name: ${NAME_RULE}`],
    ];
    for (const [what, call, details] of cases) expect(await refusal(call()), what).to.deep.equal(invalid(details));
    expect(await topicsOf(site.siteId)).to.deep.equal([['a', 1], ['b', 1]]);
  });

  it("treats another site's topics as unknown and never touches them; a site the delivery service does not know is NOT_FOUND", async () => {
    const mine = await newSite(t);
    const theirs = await newSite(t);
    await subscribe(mine, ['news']);
    await subscribe(theirs, ['secret', 'news']);
    const notFound = (name: string) => ({ code: grpc.status.INVALID_ARGUMENT, details: `Topic "${name}" not found` });
    expect(await refusal(calls.rename(mine.siteId, 'secret', 'leaked'))).to.deep.equal(notFound('secret'));
    expect(await refusal(calls.merge(mine.siteId, ['secret'], 'news'))).to.deep.equal(notFound('secret'));
    expect(await refusal(calls.remove(mine.siteId, 'secret'))).to.deep.equal(notFound('secret'));
    expect(await calls.rename(mine.siteId, 'news', 'headlines')).to.deep.equal({ subscribers: 1 });
    expect(await calls.remove(mine.siteId, 'headlines')).to.deep.equal({ subscribers: 1 });
    expect(await topicsOf(theirs.siteId)).to.deep.equal([['news', 1], ['secret', 1]]);
    await expectCountersExact(theirs.siteId);

    const siteNotFound = { code: grpc.status.NOT_FOUND, details: 'Site not found' };
    for (const siteId of ['00000000-0000-4000-8000-000000000000', 'not-a-site', '']) {
      expect(await refusal(calls.rename(siteId, 'news', 'x')), siteId).to.deep.equal(siteNotFound);
      expect(await refusal(calls.merge(siteId, ['news'], 'x')), siteId).to.deep.equal(siteNotFound);
      expect(await refusal(calls.remove(siteId, 'news')), siteId).to.deep.equal(siteNotFound);
    }
  });

  it('answers the gateway only: another service is refused with PERMISSION_DENIED', async () => {
    const site = await newSite(t);
    const target = `127.0.0.1:${t.service.grpcPort}`;
    const ConsoleData = loadConsoleDataProto().delivery.v1.ConsoleData;
    for (const token of [INTERNAL_TOKENS.CAMPAIGN_INTERNAL_TOKEN, 'not-a-token']) {
      const client = new ConsoleData(target, grpc.credentials.createInsecure(), withInternalToken(token));
      try {
        const asOther = consoleCalls(client);
        for (const call of [() => asOther.daily(site.siteId, 3), () => asOther.browsers(site.siteId), () => asOther.series(site.siteId, site.siteId), () => asOther.remove(site.siteId, 'x')]) {
          expect((await refusal(call())).code).to.equal(grpc.status.PERMISSION_DENIED);
        }
      } finally {
        client.close();
      }
    }
    const plain = new ConsoleData(target, grpc.credentials.createInsecure());
    try {
      expect((await refusal(consoleCalls(plain).daily(site.siteId, 3))).code).to.equal(grpc.status.PERMISSION_DENIED);
    } finally {
      plain.close();
    }
  });
});
