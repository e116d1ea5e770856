// A welcome automation from the browser to the enrolment (docs/api-decisions.md, "Automations"):
// a subscription identified through the delivery service's plugin endpoint reaches the campaign
// service as person.subscribed (Kafka, delivery.people.v1), and the person starts the welcome
// once, however often they identify; a subscription older than the automation starts nothing.
// Real Postgres, Kafka and both services; the waits are bounded polls for a stored row.
import { expect } from 'chai';
import type { Automation__Output } from '@webpush/contracts/generated/campaign/v1/Automation.js';
import type { Template__Output } from '@webpush/contracts/generated/campaign/v1/Template.js';
import { identitySignature } from '../../delivery/src/people/index.js';
import { INTERNAL_AUTH_HEADER } from '@webpush/shared/internal-auth.js';
import { CLIENT_ADDRESS_HEADER } from '@webpush/shared/edge-headers.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { TEST_CLIENT_ADDRESS } from '../../delivery/test/support.js';
import { browserSubscription } from '../../../gateway/test/support/stack.js';
import { startHarness, type Harness, type TestSite } from './support/harness.js';

describe('Automations: welcome on an identified subscription (Kafka)', function () {
  this.timeout(180_000);
  let h: Harness;
  let site: TestSite;
  let secret: string;
  let templateId: string;

  before(async () => {
    h = await startHarness('campaign_welcome', {}, { kafka: true });
    site = await h.newSite();
    ({ secret } = await h.deliveryOperators.identitySecret(site.siteId));
    templateId = (await h.call<Template__Output>('CreateTemplate', { siteId: site.siteId, bodyJson: JSON.stringify({ name: 'hello', title: 'Welcome aboard', body: 'Glad you are here', link: 'https://shop.example/' }) })).id;
  });
  after(async () => h?.stop());

  /** As the gateway's /public proxy calls the delivery service. */
  const post = async (path: string, body: object) => {
    const headers = { 'content-type': 'text/plain', [INTERNAL_AUTH_HEADER]: INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN, [CLIENT_ADDRESS_HEADER]: TEST_CLIENT_ADDRESS };
    const res = await fetch(`${h.deliveryHttpUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const subscribe = async () => {
    const subscription = browserSubscription();
    const res = await post(`/public/v1/sites/${site.publicId}/subscriptions`, { subscription });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return subscription.endpoint;
  };
  const identify = async (endpoint: string, externalId: string) => {
    const res = await post(`/public/v1/sites/${site.publicId}/identity`, { endpoint, externalId, signature: identitySignature(secret, externalId) });
    expect(res).to.deep.equal({ status: 200, body: { identified: true } });
  };
  const enrolments = async (automationId: string, externalId: string) =>
    Number((await h.pool.query(`SELECT count(*) FROM campaign.automation_enrolments WHERE automation_id = $1 AND external_id = $2`, [automationId, externalId])).rows[0].count);
  /** Until the person has an enrolment (bounded: the consumer joins its group first). */
  const enrolled = async (automationId: string, externalId: string) => {
    for (let i = 0; i < 600; i++) {
      if ((await enrolments(automationId, externalId)) > 0) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect.fail(`${externalId} was never enrolled`);
  };
  const create = (name: string) =>
    h.call<Automation__Output>('CreateAutomation', { siteId: site.siteId, bodyJson: JSON.stringify({ name, trigger: { type: 'subscribed' }, steps: [{ delaySeconds: 0, templateId }] }) });

  it('when a new subscription is identified, then the person starts the welcome once, however often they identify again or from another browser', async () => {
    const old = await subscribe();
    const welcome = await create('welcome');
    const endpoint = await subscribe();
    await identify(endpoint, 'ana');
    await enrolled(welcome.id, 'ana');
    await identify(endpoint, 'ana');
    await identify(await subscribe(), 'ana');
    // A subscription made before the automation existed is no new subscriber: its person is not welcomed…
    await identify(old, 'bob');
    // …and a later identify of someone new shows the messages before it were all consumed (one partition per site key).
    await identify(await subscribe(), 'carla');
    await enrolled(welcome.id, 'carla');
    expect(await enrolments(welcome.id, 'ana')).to.equal(1);
    expect(await enrolments(welcome.id, 'bob')).to.equal(0);
  });
});
