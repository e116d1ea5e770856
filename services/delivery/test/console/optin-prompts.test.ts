// A site's opt-in prompts (delivery.v1.ConsoleData OptInPrompts, UpdateOptInPrompts; docs/site-plugin.md,
// "Opt-in prompts"): the defaults until set, a change of some fields keeping the others, every
// refused field named with nothing written, each site its own; and what the plugin's public
// configuration serves of them (nothing while the site shows neither a prompt nor the bell).
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { assertResponseMatchesContract } from '../../../../test/support/openapi.js';
import { DEFAULT_PROMPTS, PROMPT_MESSAGES } from '../../src/plugin/optin-prompts.js';
import { request, startTestDelivery, type TestDelivery } from '../support.js';
import { consoleCalls, refusal } from './calls.js';

const SLIDEDOWN = {
  kind: 'slidedown',
  title: '  Breaking news, as it happens ',
  body: 'Two or three a day.\nTurn them off any time.',
  acceptLabel: 'Yes, notify me',
  notNowLabel: 'Not now',
  trigger: { pageViews: 2, delaySeconds: 5 },
  snoozeDays: 3,
  bell: { enabled: true, position: 'bottom-left' },
  topics: [
    { name: 'Sports', label: 'Sports' },
    { name: 'politics', label: 'Politics <b>&</b>' },
  ],
};

describe("console data: the site's opt-in prompts", function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let calls: ReturnType<typeof consoleCalls>;
  const a = { siteId: randomUUID(), publicId: 'pub_prompts_a' };
  const b = { siteId: randomUUID(), publicId: 'pub_prompts_b' };

  const publicConfig = async (publicId: string) => {
    const res = await request(t, 'GET', `/public/v1/sites/${publicId}/config`);
    assertResponseMatchesContract('GET', `/public/v1/sites/${publicId}/config`, res.status, res.body);
    expect(res.status).to.equal(200);
    return res.body as Record<string, unknown>;
  };
  const stored = async (siteId: string) => (await t.pool.query('SELECT optin_prompts FROM delivery.sites WHERE site_id = $1', [siteId])).rows[0].optin_prompts;

  before(async () => {
    t = await startTestDelivery('console_prompts');
    calls = consoleCalls(t.consoleData);
    await t.operators.registerSite(a);
    await t.operators.registerSite(b);
  });
  after(async () => {
    await t?.stop();
  });

  it('answers the defaults (no prompt, no bell) until set, and the public config carries no prompts then', async () => {
    expect(await calls.prompts(a.siteId)).to.deep.equal(DEFAULT_PROMPTS);
    expect(await publicConfig(a.publicId)).to.not.have.property('prompts');
  });

  it('keeps a change (texts trimmed, topic names lowercased) for its site only, and serves it in the public config', async () => {
    const expected = {
      ...SLIDEDOWN,
      title: 'Breaking news, as it happens',
      topics: [
        { name: 'sports', label: 'Sports' },
        { name: 'politics', label: 'Politics <b>&</b>' },
      ],
    };
    expect(await calls.updatePrompts(a.siteId.toUpperCase(), SLIDEDOWN)).to.deep.equal(expected);
    expect(await calls.prompts(a.siteId)).to.deep.equal(expected);
    expect((await publicConfig(a.publicId)).prompts).to.deep.equal(expected);
    expect(await calls.prompts(b.siteId)).to.deep.equal(DEFAULT_PROMPTS);
    expect(await publicConfig(b.publicId)).to.not.have.property('prompts');
  });

  it('changes only the fields given (of trigger and bell, the subfields given)', async () => {
    const before = await calls.prompts(a.siteId);
    const after = await calls.updatePrompts(a.siteId, { kind: 'modal', trigger: { delaySeconds: 0 }, bell: { enabled: false } });
    expect(after).to.deep.equal({ ...before, kind: 'modal', trigger: { pageViews: 2, delaySeconds: 0 }, bell: { enabled: false, position: 'bottom-left' } });
    // The bell alone is served too; neither a prompt nor the bell: nothing.
    await calls.updatePrompts(a.siteId, { kind: 'none', bell: { enabled: true } });
    expect((await publicConfig(a.publicId)).prompts).to.include({ kind: 'none' });
    await calls.updatePrompts(a.siteId, { bell: { enabled: false } });
    expect(await publicConfig(a.publicId)).to.not.have.property('prompts');
  });

  it('refuses every wrong field at once with its message, writing nothing', async () => {
    await calls.updatePrompts(b.siteId, SLIDEDOWN);
    const before = await stored(b.siteId);
    const cases: [unknown, string[]][] = [
      ['[]', [PROMPT_MESSAGES.object]],
      ['not json', [PROMPT_MESSAGES.object]],
      [{ kind: 'popup', title: '' }, [PROMPT_MESSAGES.kind]],
      [{ kind: 'modal', title: ' ', acceptLabel: 'x'.repeat(41) }, [PROMPT_MESSAGES.text('title', 80, true), PROMPT_MESSAGES.text('acceptLabel', 40, true)]],
      [{ title: 'a\nb', body: 'tab\there' }, [PROMPT_MESSAGES.text('title', 80, true), PROMPT_MESSAGES.text('body', 300, false)]],
      [{ title: 'nul\u0000', notNowLabel: '\ud800' }, [PROMPT_MESSAGES.characters('title'), PROMPT_MESSAGES.characters('notNowLabel')]],
      [{ trigger: { pageViews: 0, delaySeconds: 301 } }, [PROMPT_MESSAGES.pageViews, PROMPT_MESSAGES.delaySeconds]],
      [{ trigger: { pageViews: 1.5, extra: 1 } }, [PROMPT_MESSAGES.trigger, PROMPT_MESSAGES.pageViews]],
      [{ trigger: null, snoozeDays: '7' }, [PROMPT_MESSAGES.trigger, PROMPT_MESSAGES.snoozeDays]],
      [{ bell: { enabled: 'yes', position: 'top' } }, [PROMPT_MESSAGES.bellEnabled, PROMPT_MESSAGES.bellPosition]],
      [{ topics: Array.from({ length: 11 }, (_, i) => ({ name: `t${i}`, label: `T${i}` })) }, [PROMPT_MESSAGES.topics]],
      [{ topics: [{ name: 'country__br', label: 'Brazil' }, { name: 'A', label: '' }, { name: 'a', label: 'A' }] }, [PROMPT_MESSAGES.topicName, PROMPT_MESSAGES.text('topics[].label', 40, true), PROMPT_MESSAGES.topicTwice]],
      [{ colour: 'red', __proto__x: 1 }, [PROMPT_MESSAGES.unknown('colour'), PROMPT_MESSAGES.unknown('__proto__x')]],
    ];
    for (const [body, messages] of cases) {
      expect(await refusal(calls.updatePrompts(b.siteId, body)), JSON.stringify(body)).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details: messages.join(', ') });
    }
    expect(await stored(b.siteId)).to.deep.equal(before);
    // With no prompt shown, its texts may be empty.
    expect((await calls.updatePrompts(b.siteId, { kind: 'none', title: '', acceptLabel: '', notNowLabel: '' })).title).to.equal('');
  });

  it('answers NOT_FOUND "Site not found" for a site it does not know, or an id that is not a UUID', async () => {
    for (const siteId of [randomUUID(), 'not-a-site', '']) {
      expect(await refusal(calls.prompts(siteId)), siteId).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Site not found' });
      expect(await refusal(calls.updatePrompts(siteId, { kind: 'modal' })), siteId).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Site not found' });
    }
  });
});
