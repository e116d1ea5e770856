// A Java client generated from gateway/openapi/openapi.yaml the way OpenAPI Generator users make
// one (openapi-generator-maven-plugin, generator `java`, library `native`: java.net.http +
// Jackson; test/clients/java/pom.xml) calls the API against the real stack. The test builds the
// Maven project itself (`mvn -B -q -f test/clients/java/pom.xml package`: generate, compile, one
// runnable jar; about 70 s with an empty ~/.m2, 10 to 25 s after), so a document the generator
// cannot turn into compiling Java, or a program that no longer compiles against the generated
// classes, fails here. Then CallEveryOperation makes every /v2 call and the site-plugin calls a
// program can make, with java.time.OffsetDateTime dates as Java writes them (9 fraction digits,
// `Z`, and `+00:00` through a mapper of its own), and prints what each call answered; the test
// judges it. Java 17+ and Maven come from `npm run java` (scripts/install-java.sh, run by
// `npm test`).
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';
import { ALL, DATE_RE, siteWithPermissions, type SiteInfo } from './support/fixtures.js';
import { startStack, type Stack } from './support/harness.js';

const run = promisify(execFile);
const PROJECT = path.join(ROOT, 'test/clients/java');
const JAR = path.join(PROJECT, 'target/java-client-check.jar');
/** First build: the generator, the plugins and the client's dependencies come from Maven Central. */
const BUILD_TIMEOUT_MS = 10 * 60_000;

interface CallResult {
  status: number;
  requestId?: string | null;
  ok: boolean;
  value?: any;
  error?: string;
  body?: string | null;
}

interface Output {
  runId: string;
  endpointA: string;
  endpointB: string;
  scheduledWire: string;
  scheduledOffsetWire: string;
  webhookUrl: string;
  externalId: string;
  ids: { sendNow: string; draft: string; scheduled: string; scheduledOffset: string };
  calls: Record<string, CallResult>;
}

function missingTool(command: string, args: string[]): string | null {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  return r.error || r.status !== 0 ? command : null;
}

/** `2026-11-25T14:03:07.123456789Z` or `…+00:00` → `2026-11-25T14:03:07Z` (the answers' form). */
function toSecond(date: string): string {
  return date.replace(/\.\d+/, '').replace(/(?:[Zz]|[+-]00:00)$/, 'Z');
}

describe('e2e: the generated Java client (openapi-generator, library native) makes the documented calls', function () {
  this.timeout(120_000);
  let stack: Stack;
  let site: SiteInfo;
  let out: Output;
  const call = (name: string): CallResult => {
    const r = out.calls[name];
    if (!r) throw new Error(`CallEveryOperation made no call named ${name}`);
    return r;
  };
  /** A call that succeeded through the generated client, with the status the document gives it. */
  const succeeded = (name: string, status: number) => {
    const r = call(name);
    expect({ name, status: r.status, ok: r.ok, error: r.error }).to.deep.equal({ name, status, ok: true, error: undefined });
    return r.value;
  };

  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS + 180_000);
    const missing = [missingTool('java', ['-version']), missingTool('mvn', ['-v'])].filter(Boolean);
    if (missing.length) {
      throw new Error(
        `${missing.join(' and ')} not found: the Java client check needs a JDK 17+ and Apache Maven 3.8+ on PATH. ` +
          'Run `npm run java` (scripts/install-java.sh: apt-get install default-jdk-headless maven; npm test runs it), or install them yourself.',
      );
    }
    console.log('      (building the generated Java client with Maven: the first run downloads from Maven Central)');
    const started = Date.now();
    try {
      // The generator skips an unchanged document (skipIfSpecIsUnchanged); a changed pom.xml
      // (generator options, versions) is rebuilt from scratch.
      const pom = path.join(PROJECT, 'pom.xml');
      const goals = existsSync(JAR) && statSync(pom).mtimeMs > statSync(JAR).mtimeMs ? ['clean', 'package'] : ['package'];
      await run('mvn', ['-B', '-q', '-f', pom, ...goals], { cwd: ROOT, timeout: BUILD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`mvn package of test/clients/java failed: ${e.message}\n${(e.stdout ?? '').slice(-4000)}\n${(e.stderr ?? '').slice(-2000)}`);
    }
    console.log(`      (Maven build: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    expect(existsSync(JAR), `${JAR} was not built`).to.equal(true);
    stack = await startStack('e2e_java_client');
    site = await siteWithPermissions(stack, ALL, 'java-client');
    // The identity secret the operator hands to the site's owner, whose server signs user ids
    // with it (docs/people.md); the site's pages may set `lang`.
    const { secret } = await stack.cli('sites', 'identity-secret', site.id);
    await stack.cli('sites', 'set-visitor-tags', site.id, 'lang');
    const runId = randomBytes(4).toString('hex');
    const { stdout } = await run('java', ['-jar', JAR, stack.services.gatewayUrl, site.apiKey, site.publicId, runId, secret], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' });
    out = JSON.parse(stdout.trim().split('\n').pop() ?? '') as Output;
    expect(out.runId).to.equal(runId);
  });
  after(async () => {
    await stack?.stop();
  });

  it('the contract as JSON, from the same base URL as every other call', () => {
    expect(succeeded('getOpenApiJson', 200)).to.deep.equal({ openapi: '3.1.0' });
  });

  it('text answers (the YAML contract, the site-plugin scripts, the CSV exports) arrive as files the program reads (format: binary)', () => {
    // The generated native client reads a `type: string` body as JSON whatever its media type;
    // `format: binary` makes it hand the body over as a file instead.
    const starts: Record<string, RegExp> = {
      getOpenApiYaml: /^openapi: 3\.1\.0\n/,
      getSnippet: /\S/,
      getServiceWorker: /\S/,
      getPromptScript: /\S/,
      exportSubscribers: /^id,createdAt,/,
      exportCampaigns: /^id,title,status,/,
    };
    for (const [name, start] of Object.entries(starts)) {
      const value = succeeded(name, 200) as { length: number; start: string };
      expect(value.length, name).to.be.greaterThan(0);
      expect(value.start, name).to.match(start);
    }
  });

  it('site plugin: config, subscribe (201), page view, subscription change and unsubscribe', () => {
    expect(succeeded('getSiteConfig', 200)).to.deep.equal({ publicId: site.publicId, vapidPublicKey: site.vapidPublicKey });
    expect(succeeded('subscribe', 201)).to.include({ created: true });
    expect(succeeded('subscribe', 201).id).to.match(/^[0-9a-f-]{36}$/);
    expect(succeeded('recordPageView', 200)).to.deep.equal({ updated: true });
    expect(succeeded('subscribeSuccessor', 201)).to.include({ created: true });
    expect(succeeded('recordSubscriptionChange', 200)).to.deep.equal({ replaced: true });
    // endpointA was deactivated by the change: unsubscribing it deactivates nothing more.
    expect(succeeded('unsubscribe', 200)).to.deep.equal({ deactivated: false });
    expect(succeeded('recordOptInEvent', 200)).to.deep.equal({ counted: true });
  });

  it('audience: topics and countries answer, and an import of subscriptions', () => {
    const topics = succeeded('listTopics', 200) as { name: string; users: number }[];
    expect(topics.map((t) => t.name).sort()).to.deep.equal(['news', 'sports']);
    expect(succeeded('listCountries', 200)).to.deep.equal([{ name: 'country__desconhecido', users: 1 }]);
    expect(succeeded('getOptInFunnel', 200)).to.deep.equal({ prompt: 'slide-down', shown: 1 });
    expect(succeeded('importSubscribers', 200)).to.deep.equal({ received: 1, imported: 1, existing: 0, refused: 0, refusals: 0, vapidPublicKey: site.vapidPublicKey });
  });

  it('people: identify (signed by the program), the page\'s tag, the user read, tagged and exported, the logout, then the user deleted (its logged-out subscription stays) and 404', () => {
    const externalId = out.externalId;
    expect(succeeded('identifySubscription', 200)).to.deep.equal({ identified: true });
    expect(succeeded('tagVisitor', 200)).to.deep.equal({ tagged: true });
    expect(succeeded('getUser', 200)).to.deep.include({ externalId, subscriptionsActive: [true], tags: { lang: 'pt' } });
    expect(succeeded('updateUser', 200).tags).to.deep.equal({ lang: 'pt', plan: 'gold', score: 7, signed_up_at: '2026-01-15T00:00:00.000Z' });
    expect(succeeded('exportUser', 200)).to.deep.equal({ externalId, tags: { lang: 'pt', plan: 'gold', score: 7, signed_up_at: '2026-01-15T00:00:00.000Z' }, subscriptions: 1 });
    expect(succeeded('forgetSubscriptionIdentity', 200)).to.deep.equal({ unlinked: true });
    expect(succeeded('deleteUser', 200)).to.deep.equal({ externalId, deleted: true, subscriptions: 0 });
    const missing = call('getDeletedUser');
    expect([missing.status, missing.ok, JSON.parse(missing.body ?? 'null')]).to.deep.equal([404, false, { message: 'User not found' }]);
  });

  it('create: send now (with Idempotency-Key and X-Request-Id), draft, and two scheduled with OffsetDateTime', () => {
    // The dates as the generated client wrote them: Jackson's OffsetDateTime with all 9
    // fraction digits and `Z`, and the second client's `+00:00`.
    expect(out.scheduledWire).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.123456789Z$/);
    expect(out.scheduledOffsetWire).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.987654321\+00:00$/);
    const now = succeeded('createSendNow', 200);
    expect(call('createSendNow').requestId).to.equal(`java-create-${out.runId}`);
    expect(succeeded('createSendNowAgain', 200)).to.deep.equal({ id: now.id });
    for (const name of ['createDraft', 'createScheduled', 'createScheduledOffset']) expect(succeeded(name, 200).id, name).to.match(/^[0-9a-f-]{36}$/);
    expect(new Set(Object.values(out.ids)).size).to.equal(4);
  });

  it('get: the scheduled dates come back as the answers\' form, truncated to the second', async () => {
    for (const [name, wire, id] of [
      ['getScheduled', out.scheduledWire, out.ids.scheduled],
      ['getScheduledOffset', out.scheduledOffsetWire, out.ids.scheduledOffset],
    ] as const) {
      const got = succeeded(name, 200);
      expect(got).to.include({ id, status: 'published', scheduleMode: 'scheduled', scheduleDateOffset: 'Z', scheduleDateNanos: 0, ttl: 3600, ttlUnit: 'seconds', utmSource: 'java' });
      expect(got.scheduleDate, name).to.equal(toSecond(wire));
    }
    // On the wire too (the client shows the parsed OffsetDateTime), for the campaign the program
    // did not delete.
    const raw = await stack.api.request('GET', `/v2/campaign/${out.ids.scheduledOffset}`, { key: site.apiKey });
    expect([raw.status, raw.body.scheduleDate]).to.deep.equal([200, toSecond(out.scheduledOffsetWire)]);
    expect(raw.body.scheduleDate).to.match(DATE_RE);
    expect(succeeded('getDraft', 200)).to.include({ id: out.ids.draft, status: 'draft', scheduleMode: 'now' });
  });

  it('list: a period built from OffsetDateTime values returns the scheduled campaigns, newest first, and pages with the cursor', () => {
    const both = [out.ids.scheduledOffset, out.ids.scheduled];
    expect(succeeded('listPeriod', 200)).to.include({ hasMore: false }).and.deep.include({ ids: both });
    expect(succeeded('listPeriodOffset', 200)).to.deep.include({ ids: both });
    const first = succeeded('listPeriodFirstPage', 200);
    expect([first.ids, first.limit, first.hasMore]).to.deep.equal([[out.ids.scheduledOffset], 1, true]);
    expect(first.nextCursor).to.be.a('string');
    const second = succeeded('listPeriodSecondPage', 200);
    // (The program's output leaves out null fields: a null nextCursor is absent.)
    expect([second.ids, second.hasMore, second.nextCursor ?? null]).to.deep.equal([[out.ids.scheduled], false, null]);
    expect(succeeded('listLatest', 200).ids).to.have.members(Object.values(out.ids));
    expect(succeeded('listDrafts', 200).ids).to.deep.equal([out.ids.draft]);
  });

  it('pick a winner: a campaign without an A/B test answers 409 with the ErrorResponse body', () => {
    const picked = call('pickWinnerNoTest');
    expect([picked.status, picked.ok, JSON.parse(picked.body ?? 'null')]).to.deep.equal([409, false, { message: 'The campaign has no A/B test' }]);
  });

  it('update and recall: a campaign not sent yet answers 409 with the ErrorResponse body', () => {
    for (const step of ['updateNotSent', 'recallNotSent']) {
      const answer = call(step);
      expect([answer.status, answer.ok, JSON.parse(answer.body ?? 'null')], step).to.deep.equal([409, false, { message: 'Only a sent campaign can be updated or recalled' }]);
    }
  });

  it('delete: the scheduled campaign and the draft; then get answers 404 with the ErrorResponse body', () => {
    expect(succeeded('deleteScheduled', 200)).to.deep.equal({ id: out.ids.scheduled, deleted: true });
    expect(succeeded('deleteDraft', 200)).to.deep.equal({ id: out.ids.draft, deleted: true });
    const missing = call('getDeleted');
    expect([missing.status, missing.ok, JSON.parse(missing.body ?? 'null')]).to.deep.equal([404, false, { message: 'Campaign not found' }]);
  });

  it('notifications: one to an unknown subscription is accepted (202), read back and listed', () => {
    const created = succeeded('createNotification', 202);
    expect(created.id).to.match(/^[0-9a-f-]{36}$/);
    expect(succeeded('getNotification', 200)).to.deep.equal({ id: created.id, transactional: true, targets: 1, title: 'Your order shipped' });
    expect(succeeded('listNotifications', 200)).to.deep.equal({ ids: [created.id] });
  });

  it('templates: create (version 1, its variables), list, get, change (version 2), render with a visitor\'s values, delete; then get answers 404', () => {
    const created = succeeded('createTemplate', 200);
    expect(created).to.include({ name: `Back in stock ${out.runId}`, version: 1, title: 'Hi {{ first_name | "there" }}' });
    expect(created.id).to.match(/^[0-9a-f-]{36}$/);
    expect(created.variables).to.deep.equal([{ name: 'first_name', required: false }, { name: 'product', required: true }, { name: 'product_id', required: true }]);
    expect(succeeded('listTemplates', 200)).to.deep.equal([created]);
    expect(succeeded('getTemplate', 200)).to.deep.equal(created);
    expect(succeeded('updateTemplate', 200)).to.deep.equal({ ...created, version: 2, body: 'Only {{ left | "a few" }} {{ product }} left', variables: [{ name: 'first_name', required: false }, { name: 'left', required: false }, { name: 'product', required: true }, { name: 'product_id', required: true }] });
    expect(succeeded('renderTemplate', 200)).to.deep.equal({ template: { id: created.id, version: 2 }, content: { title: 'Hi Ana', body: 'Only 3 red boots left', link: 'https://shop.example/p/b%2F42' } });
    expect(succeeded('deleteTemplate', 200)).to.deep.equal({ id: created.id, deleted: true });
    const missing = call('getDeletedTemplate');
    expect([missing.status, missing.ok, JSON.parse(missing.body ?? 'null')]).to.deep.equal([404, false, { message: 'Template not found' }]);
  });

  it('automations: create through the template, list, the person\'s event (enrolled), get, pause, delete; then get answers 404', () => {
    const created = succeeded('createAutomation', 200);
    const templateId = succeeded('createTemplate', 200).id;
    expect(created).to.deep.include({
      name: `Abandoned cart ${out.runId}`,
      status: 'active',
      trigger: { type: 'event', name: 'cart_abandoned' },
      steps: [{ delaySeconds: 3600, templateId, variables: { first_name: 'there' }, results: { sent: 0, exits: 0, impressions: 0, clicks: 0, ctr: 0 } }],
      exitOn: { events: ['checkout_completed'] },
      enrolments: { active: 0, completed: 0, exited: 0 },
    });
    // No throttle: null in the API, printed as absent (the program's output leaves nulls out).
    expect(created).to.not.have.property('throttlePerMinute');
    // A list's automations have neither step results nor enrolments.
    expect(succeeded('listAutomations', 200)).to.deep.equal([{
      id: created.id, name: created.name, status: 'active', trigger: created.trigger,
      steps: [{ delaySeconds: 3600, templateId, variables: { first_name: 'there' } }], exitOn: created.exitOn, createdAt: created.createdAt,
    }]);
    expect(succeeded('recordEvent', 202).id).to.match(/^[0-9a-f-]{36}$/);
    expect(succeeded('getAutomation', 200)).to.deep.equal({ ...created, enrolments: { active: 1, completed: 0, exited: 0 } });
    expect(succeeded('updateAutomation', 200)).to.deep.include({ id: created.id, status: 'paused', throttlePerMinute: 120, enrolments: { active: 1, completed: 0, exited: 0 } });
    expect(succeeded('deleteAutomation', 200)).to.deep.equal({ id: created.id, deleted: true });
    const missing = call('getDeletedAutomation');
    expect([missing.status, missing.ok, JSON.parse(missing.body ?? 'null')]).to.deep.equal([404, false, { message: 'Automation not found' }]);
  });

  it('feeds: create, list, get, pause, delete; then get answers 404', () => {
    const created = succeeded('createFeed', 200);
    expect(created).to.deep.include({ url: `https://feeds.example.com/java-${out.runId}.xml`, pollIntervalMinutes: 15, paused: false, topics: ['news'] });
    expect(created.id).to.match(/^[0-9a-f-]{36}$/);
    expect(succeeded('listFeeds', 200)).to.deep.equal([created]);
    expect(succeeded('getFeed', 200)).to.deep.equal(created);
    expect(succeeded('updateFeed', 200)).to.deep.equal({ ...created, pollIntervalMinutes: 60, paused: true });
    expect(succeeded('deleteFeed', 200)).to.deep.equal({ id: created.id, deleted: true });
    const missing = call('getDeletedFeed');
    expect([missing.status, missing.ok, JSON.parse(missing.body ?? 'null')]).to.deep.equal([404, false, { message: 'Feed not found' }]);
  });

  it('webhooks: create (the secret once), list, get, change, ping, deliveries, redeliver the ping, rotate the secret, delete; then get answers 404', () => {
    const created = succeeded('createWebhook', 200);
    expect(call('createWebhook').requestId).to.equal(`java-webhook-${out.runId}`);
    expect(created).to.include({ url: out.webhookUrl, description: 'Java client', enabled: true, secretWellFormed: true });
    expect(created.events).to.deep.equal(['notification.clicks', 'subscriber.created']);
    expect(created.id).to.match(/^[0-9a-f-]{36}$/);
    // The client parsed the dates (milliseconds) into OffsetDateTime; null fields are left out.
    expect(created.createdAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/);
    const { secretWellFormed, secretHash, ...endpoint } = created;
    expect(succeeded('listWebhooks', 200)).to.deep.equal([endpoint]);
    expect(succeeded('getWebhook', 200)).to.deep.equal(endpoint);
    expect(succeeded('updateWebhook', 200)).to.deep.equal({ ...endpoint, description: 'Java client, changed', events: ['notification.impressions', 'subscriber.created'] });
    const ping = succeeded('pingWebhook', 200);
    expect(ping).to.include({ type: 'webhook.ping', state: 'pending', attempts: 0 });
    expect(succeeded('listWebhookDeliveries', 200).map((d: { eventId: string; type: string }) => [d.eventId, d.type])).to.deep.equal([[ping.eventId, 'webhook.ping']]);
    expect(succeeded('redeliverWebhookEvent', 200)).to.include({ eventId: ping.eventId, type: 'webhook.ping', state: 'pending' });
    const rotated = succeeded('rotateWebhookSecret', 200);
    expect(rotated).to.include({ id: created.id, secretWellFormed: true });
    expect(rotated.secretHash).to.not.equal(secretHash);
    expect(rotated.previousSecretExpiresAt).to.be.a('string');
    expect(succeeded('deleteWebhook', 200)).to.deep.equal({ id: created.id, deleted: true });
    const missing = call('getDeletedWebhook');
    expect([missing.status, missing.ok, JSON.parse(missing.body ?? 'null')]).to.deep.equal([404, false, { message: 'Webhook not found' }]);
  });

  it('every /v2 operation of the document was called', () => {
    const operations = [
      'createCampaign', 'listCampaigns', 'getCampaign', 'deleteCampaign', 'planCampaignPreview', 'pickCampaignWinner', 'updateCampaign', 'recallCampaign', 'listTopics', 'listCountries', 'importSubscribers', 'exportSubscribers', 'exportCampaigns', 'getOpenApiJson', 'getOpenApiYaml',
      'listWebhooks', 'createWebhook', 'getWebhook', 'updateWebhook', 'deleteWebhook', 'rotateWebhookSecret', 'listWebhookDeliveries', 'redeliverWebhookEvent', 'pingWebhook',
      'getUser', 'updateUser', 'deleteUser', 'exportUser', 'identifySubscription', 'forgetSubscriptionIdentity', 'tagVisitor',
      'listTemplates', 'createTemplate', 'getTemplate', 'updateTemplate', 'deleteTemplate', 'renderTemplate',
      'listFeeds', 'createFeed', 'getFeed', 'updateFeed', 'deleteFeed',
      'listAutomations', 'createAutomation', 'getAutomation', 'updateAutomation', 'deleteAutomation', 'recordEvent',
      'createNotification', 'listNotifications', 'getNotification', 'getOptInFunnel', 'recordOptInEvent',
    ];
    const made: Record<string, string> = {
      createCampaign: 'createSendNow', listCampaigns: 'listPeriod', getCampaign: 'getScheduled', deleteCampaign: 'deleteScheduled', planCampaignPreview: 'planCampaignPreview', pickCampaignWinner: 'pickWinnerNoTest', updateCampaign: 'updateNotSent', recallCampaign: 'recallNotSent',
      listTopics: 'listTopics', listCountries: 'listCountries', importSubscribers: 'importSubscribers', exportSubscribers: 'exportSubscribers', exportCampaigns: 'exportCampaigns', getOpenApiJson: 'getOpenApiJson', getOpenApiYaml: 'getOpenApiYaml',
      listWebhooks: 'listWebhooks', createWebhook: 'createWebhook', getWebhook: 'getWebhook', updateWebhook: 'updateWebhook', deleteWebhook: 'deleteWebhook',
      rotateWebhookSecret: 'rotateWebhookSecret', listWebhookDeliveries: 'listWebhookDeliveries', redeliverWebhookEvent: 'redeliverWebhookEvent', pingWebhook: 'pingWebhook',
      getUser: 'getUser', updateUser: 'updateUser', deleteUser: 'deleteUser', exportUser: 'exportUser', identifySubscription: 'identifySubscription', forgetSubscriptionIdentity: 'forgetSubscriptionIdentity', tagVisitor: 'tagVisitor',
      listTemplates: 'listTemplates', createTemplate: 'createTemplate', getTemplate: 'getTemplate', updateTemplate: 'updateTemplate', deleteTemplate: 'deleteTemplate', renderTemplate: 'renderTemplate',
      listFeeds: 'listFeeds', createFeed: 'createFeed', getFeed: 'getFeed', updateFeed: 'updateFeed', deleteFeed: 'deleteFeed',
      listAutomations: 'listAutomations', createAutomation: 'createAutomation', getAutomation: 'getAutomation', updateAutomation: 'updateAutomation', deleteAutomation: 'deleteAutomation', recordEvent: 'recordEvent',
      createNotification: 'createNotification', listNotifications: 'listNotifications', getNotification: 'getNotification',
      getOptInFunnel: 'getOptInFunnel', recordOptInEvent: 'recordOptInEvent',
    };
    expect(operations.filter((op) => !out.calls[made[op]])).to.deep.equal([]);
  });
});
