// Clients made from gateway/openapi/openapi.yaml by OpenAPI Generator's CLI, the way most of its
// users make them (openapi-generator-cli, the version pinned in test/clients/package.json, from
// Maven Central into ~/.m2 by scripts/install-openapi-generator.sh): `python` (urllib3 +
// pydantic 2), `typescript-fetch` and `go`. All three are generated in one `batch` run
// (test/clients/openapi-generator/*.yaml); the TypeScript one is compiled with test/clients'
// TypeScript 5, the Go one with Debian's Go; then a program for each (test/clients/python,
// typescript-fetch, go) calls every operation of the document against the real stack, the same
// steps in the same order. A document the generator cannot turn into a working client
// (operations lost to a file overwritten by another, code that does not import or compile,
// answers the client refuses to read) fails here. Python with pydantic 2 and Go come from
// `npm run python` and `npm run go` (scripts/install-python.sh, install-go.sh; npm test runs them).
import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import pg from 'pg';
import { ROOT } from '../../scripts/lib/local-env.js';
import { createTrackingTokens, deriveTrackingKey } from '../../services/delivery/src/tracking/tracking-token.js';
import { contractDocument } from '../support/openapi.js';
import { ALL, browserKeys, siteWithPermissions, subscribe, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const run = promisify(execFile);
const CLIENTS = path.join(ROOT, 'test/clients');
const GENERATOR_VERSION = (JSON.parse(readFileSync(path.join(CLIENTS, 'package.json'), 'utf8')) as { config: { openapiGeneratorCli: string } }).config.openapiGeneratorCli;
const JAR = path.join(homedir(), `.m2/repository/org/openapitools/openapi-generator-cli/${GENERATOR_VERSION}/openapi-generator-cli-${GENERATOR_VERSION}.jar`);
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Step {
  operation: string;
  status: number | null;
  ok: boolean;
  body?: any;
  requestId?: string | null;
  location?: string | null;
  error?: string;
}

interface Command {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

/** Debian's Go in GOPATH mode: the generated package and Debian's gopkg.in/validator.v2, nothing downloaded. */
const GOPATH_ENV = { ...process.env, GO111MODULE: 'off', GOFLAGS: '', GOPATH: `${path.join(CLIENTS, 'generated/cli/gopath')}:/usr/share/gocode` };

/** How each language's program is built (after generation) and run; `label` starts its texts. */
const LANGUAGES: Record<string, Command & { label: string; build?: Command }> = {
  python: {
    label: 'Python',
    command: 'python3',
    args: [path.join(CLIENTS, 'python/call_every_operation.py')],
    env: { ...process.env, PYTHONPATH: path.join(CLIENTS, 'generated/cli/python'), PYTHONDONTWRITEBYTECODE: '1' },
  },
  'typescript-fetch': {
    label: 'TypeScript',
    // The generated client and the program, compiled with test/clients' TypeScript 5.
    build: { command: path.join(CLIENTS, 'node_modules/.bin/tsc'), args: ['-p', 'typescript-fetch/tsconfig.json'] },
    command: process.execPath,
    args: [path.join(CLIENTS, 'dist/cli/typescript-fetch/call-every-operation.js')],
  },
  go: {
    label: 'Go',
    build: { command: 'go', args: ['build', '-o', 'dist/cli/go/call-every-operation', './go/call_every_operation.go'], env: GOPATH_ENV },
    command: path.join(CLIENTS, 'dist/cli/go/call-every-operation'),
    args: [],
  },
};

function failure(err: unknown): string {
  const e = err as { stdout?: string; stderr?: string; message: string };
  return `${e.message}\n${(e.stdout ?? '').slice(-4000)}\n${(e.stderr ?? '').slice(-2000)}`;
}

/** The operations of the document's paths (the `webhooks` entry is what we post, not a call). */
function documentOperations(): string[] {
  const ops: string[] = [];
  for (const item of Object.values((contractDocument().paths ?? {}) as Record<string, Record<string, { operationId?: string }>>)) {
    for (const op of Object.values(item)) if (op?.operationId) ops.push(op.operationId);
  }
  return ops.sort();
}

/** Each step of the programs and the status the document gives it for what the step does. */
const EXPECTED_STATUS: Record<string, number> = {
  getOpenApiJson: 200, getOpenApiYaml: 200, getSnippet: 200, getServiceWorker: 200, getPromptScript: 200, getSiteConfig: 200,
  subscribe: 201, recordPageView: 200, subscribeSuccessor: 201, recordSubscriptionChange: 200, unsubscribe: 200, recordOptInEvent: 200,
  listTopics: 200, listCountries: 200, getOptInFunnel: 200, importSubscribers: 200, exportSubscribers: 200,
  identifySubscription: 200, tagVisitor: 200, getUser: 200, updateUser: 200, exportUser: 200, forgetSubscriptionIdentity: 200, deleteUser: 200, getDeletedUser: 404,
  createCampaign: 200, getCampaign: 200, listCampaigns: 200, exportCampaigns: 200, planCampaignPreview: 200, pickCampaignWinner: 409, updateCampaign: 409, recallCampaign: 409, deleteCampaign: 200, getDeletedCampaign: 404,
  createTemplate: 200, listTemplates: 200, getTemplate: 200, updateTemplate: 200, renderTemplate: 200, deleteTemplate: 200, getDeletedTemplate: 404,
  createAutomation: 200, listAutomations: 200, recordEvent: 202, getAutomation: 200, updateAutomation: 200, deleteAutomation: 200, getDeletedAutomation: 404,
  createFeed: 200, listFeeds: 200, getFeed: 200, updateFeed: 200, deleteFeed: 200, getDeletedFeed: 404,
  createNotification: 202, getNotification: 200, listNotifications: 200,
  createWebhook: 200, listWebhooks: 200, getWebhook: 200, updateWebhook: 200, pingWebhook: 200, listWebhookDeliveries: 200, redeliverWebhookEvent: 200, rotateWebhookSecret: 200, deleteWebhook: 200,
  reportEvent: 202, clickRedirect: 302,
};

describe('e2e: clients generated by the OpenAPI Generator CLI (python, typescript-fetch, go) call every operation', function () {
  this.timeout(120_000);
  let stack: Stack;

  before(async function () {
    this.timeout(10 * 60_000);
    if (!existsSync(JAR)) throw new Error(`${JAR} is missing: run \`npm run generators\` (scripts/install-openapi-generator.sh; npm test does it)`);
    if (!existsSync(path.join(CLIENTS, 'node_modules/.bin/tsc'))) throw new Error('test/clients has no packages: run `npm run clients` (npm test does it)');
    const started = Date.now();
    try {
      // One JVM for both generators (batch runs them in parallel).
      await run('java', ['-jar', JAR, 'batch', '--fail-fast', ...Object.keys(LANGUAGES).map((language) => `openapi-generator/${language}.yaml`)], { cwd: CLIENTS, timeout: 5 * 60_000, maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' });
    } catch (err) {
      throw new Error(`openapi-generator-cli failed: ${failure(err)}`);
    }
    console.log(`      (openapi-generator-cli ${GENERATOR_VERSION}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    stack = await startStack('e2e_cli_clients');
  });
  after(async () => {
    await stack?.stop();
  });

  for (const [language, program] of Object.entries(LANGUAGES)) {
    describe(language, () => {
      let site: SiteInfo;
      let steps: Record<string, Step>;
      let runId: string;
      const step = (name: string): Step => {
        const s = steps[name];
        if (!s) throw new Error(`the ${language} program made no step named ${name}`);
        return s;
      };
      const body = (name: string) => step(name).body;

      before(async function () {
        this.timeout(6 * 60_000);
        if (program.build) {
          try {
            await run(program.build.command, program.build.args, { cwd: CLIENTS, env: program.build.env ?? process.env, timeout: 5 * 60_000, killSignal: 'SIGKILL' });
          } catch (err) {
            throw new Error(`building the ${language} client failed: ${failure(err)}`);
          }
        }
        site = await siteWithPermissions(stack, ALL, `cli-${language}`);
        // A sent campaign and one subscriber's tracking token, made as the delivery service makes
        // it, for the two tracking calls (report and click redirect).
        const trackedId = `cli-${language}-tracked-${randomBytes(4).toString('hex')}`;
        await subscribe(stack, site, trackedId, ['tracked']);
        const sent = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ topics: ['tracked'], status: 'published', link: 'https://shop.example/tracked', utmSource: language }) });
        expect(sent.status, sent.text).to.equal(200);
        const db = new pg.Client({ connectionString: stack.databaseUrl });
        await db.connect();
        let subscriberId: string;
        try {
          // The delivery service has taken the send (its run holds the link the redirect goes to).
          await eventually(async () => ((await db.query('SELECT 1 FROM delivery.campaign_runs WHERE campaign_id = $1', [sent.body.id])).rowCount ? true : undefined), 30_000, 100);
          subscriberId = String((await db.query('SELECT id FROM delivery.subscribers WHERE endpoint = $1', [`https://127.0.0.1/push/${trackedId}`])).rows[0].id);
        } finally {
          await db.end();
        }
        const token = createTrackingTokens(deriveTrackingKey(Buffer.from(stack.vapidEncryptionKey, 'base64'))).sign({ campaignId: sent.body.id, subscriberId });
        runId = randomBytes(4).toString('hex');
        // The site's server signs its user's id with the identity secret the operator handed
        // over (docs/people.md); the site's pages may set `lang`.
        const { secret } = await stack.cli('sites', 'identity-secret', site.id);
        await stack.cli('sites', 'set-visitor-tags', site.id, 'lang');
        const externalId = `${language}-user-${runId}`;
        const endpoint = (name: string) => `https://127.0.0.1/push/cli-${language}-${name}-${runId}`;
        const input = {
          origin: stack.services.gatewayUrl,
          key: site.apiKey,
          publicId: site.publicId,
          token,
          runId,
          endpointA: endpoint('a'),
          endpointB: endpoint('b'),
          endpointImport: endpoint('import'),
          externalId,
          signature: createHmac('sha256', secret).update(externalId).digest('hex'),
          ...browserKeys(),
        };
        const { stdout } = await run(program.command, [...program.args, JSON.stringify(input)], { env: program.env ?? process.env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' });
        const out = JSON.parse(stdout.trim().split('\n').pop() ?? '') as { runId: string; steps: Record<string, Step> };
        expect(out.runId).to.equal(runId);
        steps = out.steps;
      });

      it('calls every operation of the document, each answered with the status the document gives it', () => {
        const called = [...new Set(Object.values(steps).map((s) => s.operation))].sort();
        expect(called).to.deep.equal(documentOperations());
        expect(called.length).to.equal(documentOperations().length);
        const statuses = Object.fromEntries(Object.entries(steps).map(([name, s]) => [name, s.error ?? s.status]));
        expect(statuses).to.deep.equal(EXPECTED_STATUS);
        // Every 2xx was read by the client without complaint (an error status is an exception by design).
        expect(Object.entries(steps).filter(([, s]) => s.status !== null && s.status < 300 && !s.ok).map(([name]) => name)).to.deep.equal([]);
      });

      it('the contract and the site-plugin scripts arrive as text (format: binary), site plugin calls work', () => {
        expect(body('getOpenApiJson').openapi).to.equal('3.1.0');
        expect(body('getOpenApiYaml')).to.match(/^openapi: 3\.1\.0\n/);
        for (const name of ['getSnippet', 'getServiceWorker', 'getPromptScript']) expect(body(name), name).to.be.a('string').and.not.equal('');
        expect(body('getSiteConfig')).to.deep.equal({ publicId: site.publicId, vapidPublicKey: site.vapidPublicKey });
        expect(body('subscribe').created).to.equal(true);
        expect(body('recordPageView')).to.deep.equal({ updated: true });
        expect(body('recordSubscriptionChange')).to.deep.equal({ replaced: true });
        expect(body('unsubscribe')).to.deep.equal({ deactivated: false });
      });

      it('audience: topics, countries, an import and a CSV export', () => {
        expect((body('listTopics') as { name: string }[]).map((t) => t.name)).to.include.members(['news', 'sports', 'tracked']);
        expect(body('listCountries')).to.be.an('array');
        expect(body('importSubscribers')).to.include({ received: 1, imported: 1 });
        const csv = body('exportSubscribers') as string;
        expect(csv.split('\r\n')).to.have.length(3); // header, the imported subscriber, and after the last CRLF
        expect(csv).to.match(/,PT,imported,/);
      });

      it('people: identify and the page\'s tag, the user read, tagged and exported, the logout, then the user deleted (its logged-out subscription stays) and 404', () => {
        expect(body('identifySubscription')).to.deep.equal({ identified: true });
        expect(body('tagVisitor')).to.deep.equal({ tagged: true });
        const externalId = `${language}-user-${runId}`;
        const user = body('getUser');
        expect([user.externalId, user.subscriptions.length, user.subscriptions[0].active, user.tags]).to.deep.equal([externalId, 1, true, { lang: 'pt' }]);
        expect(body('updateUser').tags).to.deep.equal({ lang: 'pt', plan: 'gold', score: 7, signed_up_at: '2026-01-15T00:00:00.000Z' });
        const exported = body('exportUser');
        expect([exported.externalId, exported.tags.plan, exported.subscriptions.length]).to.deep.equal([externalId, 'gold', 1]);
        expect(body('forgetSubscriptionIdentity')).to.deep.equal({ unlinked: true });
        expect(body('deleteUser')).to.deep.equal({ externalId, deleted: true, subscriptions: 0 });
        expect(body('getDeletedUser')).to.deep.equal({ message: 'User not found' });
      });

      it('campaigns: a create with ignoreFrequencyCap, get with the id as the answer gave it, list, NDJSON export, winner, update and recall 409, delete, then 404', () => {
        const id = body('createCampaign').id as string;
        expect(id).to.match(UUID_RE);
        expect(step('createCampaign').requestId).to.equal(`${language}-create-${runId}`);
        expect(body('getCampaign')).to.include({ id, ignoreFrequencyCap: true, scheduleMode: 'scheduled' });
        const items = body('listCampaigns').items as { id: string; ignoreFrequencyCap?: boolean }[];
        expect(items.map((c) => [c.id, c.ignoreFrequencyCap])).to.deep.equal([[id, true]]);
        const lines = (body('exportCampaigns') as string).trim().split('\n');
        expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).to.deep.equal([id]);
        expect(body('pickCampaignWinner')).to.deep.equal({ message: 'The campaign has no A/B test' });
        for (const operation of ['updateCampaign', 'recallCampaign']) expect(body(operation), operation).to.deep.equal({ message: 'Only a sent campaign can be updated or recalled' });
        expect(body('deleteCampaign')).to.deep.equal({ id, deleted: true });
        expect(body('getDeletedCampaign')).to.deep.equal({ message: 'Campaign not found' });
      });

      it('templates: create (version 1, its variables), list, get, change (version 2), render with a visitor\'s values, delete, then 404', () => {
        const created = body('createTemplate');
        expect(created.id).to.match(UUID_RE);
        expect([created.name, created.version]).to.deep.equal([`Back in stock ${runId}`, 1]);
        expect(created.variables).to.deep.equal([{ name: 'first_name', required: false }, { name: 'product', required: true }, { name: 'product_id', required: true }]);
        expect((body('listTemplates').items as { id: string }[]).map((t) => t.id)).to.deep.equal([created.id]);
        expect(body('getTemplate')).to.include({ id: created.id, title: 'Hi {{ first_name | "there" }}' });
        expect(body('updateTemplate')).to.include({ version: 2, body: 'Only {{ left | "a few" }} {{ product }} left' });
        const rendered = body('renderTemplate');
        expect(rendered.template).to.deep.equal({ id: created.id, version: 2 });
        expect(rendered.content).to.include({ title: 'Hi Ana', body: 'Only 3 red boots left', link: 'https://shop.example/p/b%2F42' });
        expect(body('deleteTemplate')).to.deep.equal({ id: created.id, deleted: true });
        expect(body('getDeletedTemplate')).to.deep.equal({ message: 'Template not found' });
      });

      it('automations: create through the template, list, the person\'s event (enrolled), get, pause, delete, then 404', () => {
        const created = body('createAutomation');
        const templateId = body('createTemplate').id;
        expect([step('createAutomation').requestId, created.status, created.trigger, created.exitOn.events, created.exitOn.click]).to.deep.equal([`${language}-automation-${runId}`, 'active', { type: 'event', name: 'cart_abandoned' }, ['checkout_completed'], true]);
        expect(created.steps).to.deep.equal([{ delaySeconds: 3600, templateId, variables: { first_name: 'there' }, results: { sent: 0, exits: 0, impressions: 0, clicks: 0, ctr: 0 } }]);
        expect((body('listAutomations').items as { id: string }[]).map((a) => a.id)).to.deep.equal([created.id]);
        expect(body('recordEvent').id).to.be.a('string');
        expect(body('getAutomation')).to.include({ id: created.id });
        expect(body('getAutomation').enrolments).to.deep.include({ active: 1, completed: 0, exited: 0 });
        expect(body('updateAutomation')).to.include({ id: created.id, status: 'paused' });
        expect(body('deleteAutomation')).to.deep.equal({ id: created.id, deleted: true });
        expect(body('getDeletedAutomation')).to.deep.equal({ message: 'Automation not found' });
      });

      it('feeds: create (due for its first poll), list, get, pause, delete, then 404', () => {
        const created = body('createFeed');
        expect(created.id).to.match(UUID_RE);
        expect([created.url, created.paused, created.pollIntervalMinutes, created.topics, created.utmSource]).to.deep.equal([`https://feeds.example.com/${runId}.xml`, false, 15, ['news'], 'feed']);
        expect((body('listFeeds').items as { id: string }[]).map((f) => f.id)).to.deep.equal([created.id]);
        expect(body('getFeed')).to.include({ id: created.id, url: created.url });
        expect(body('updateFeed')).to.include({ paused: true, pollIntervalMinutes: 60 });
        expect(body('deleteFeed')).to.deep.equal({ id: created.id, deleted: true });
        expect(body('getDeletedFeed')).to.deep.equal({ message: 'Feed not found' });
      });

      it('webhooks: create (its secret once), list, get, change, ping, deliveries, redeliver, rotate the secret, delete', () => {
        const created = body('createWebhook');
        expect(created.secret).to.match(/^whsec_/);
        expect(created.id).to.match(UUID_RE);
        expect((body('listWebhooks') as { id: string }[]).map((w) => w.id)).to.deep.equal([created.id]);
        expect(body('getWebhook').id).to.equal(created.id);
        expect(body('updateWebhook').description).to.equal(`${program.label} client, changed`);
        const ping = body('pingWebhook');
        expect(ping.type).to.equal('webhook.ping');
        expect((body('listWebhookDeliveries') as { eventId: string }[]).map((d) => d.eventId)).to.deep.equal([ping.eventId]);
        expect(body('redeliverWebhookEvent').eventId).to.equal(ping.eventId);
        expect(body('rotateWebhookSecret').secret).to.match(/^whsec_/).and.not.equal(created.secret);
        expect(body('deleteWebhook')).to.deep.equal({ id: created.id, deleted: true });
      });

      it('tracking: the report is accepted (202) and the click redirects (302) to the link with UTM', () => {
        expect(body('reportEvent')).to.deep.equal({ accepted: true });
        expect(step('clickRedirect').location).to.equal(`https://shop.example/tracked?utm_source=${language}`);
      });
    });
  }
});
