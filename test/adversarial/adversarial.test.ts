// The adversarial suite (issue 10; docs/security.md): hostile input and hostile networks
// against the real processes — one stack (gateway, campaign, delivery as child processes, the
// same launcher as `npm start`), attacked as an outsider with an ordinary API key, as an
// anonymous browser, over raw TCP, and from inside without credentials. Every class asserts: no
// 5xx, error bodies exactly `{message}`, every process alive and serving a second site's
// known-good calls afterwards, nothing stored on a 4xx. Bounded: fixed fast-check seed
// (ADVERSARIAL_SEED), modest run counts and time limits. The table printed at the end gives
// the inputs tried per class and their outcomes.
import { registerAdminApi } from './classes/admin-api.js';
import { registerAutomations } from './classes/automations.js';
import { registerConsoleAudit } from './classes/console-audit.js';
import { registerConsoleAutomations } from './classes/console-automations.js';
import { registerConsoleDrafts } from './classes/console-drafts.js';
import { registerConsoleSettings } from './classes/console-settings.js';
import { registerConsoleLogin } from './classes/console-login.js';
import { registerConsoleMembers } from './classes/console-members.js';
import { registerConsolePeople } from './classes/console-people.js';
import { registerConsoleWebhooks } from './classes/console-webhooks.js';
import { registerCrashers } from './classes/crashers.js';
import { registerCrossSite } from './classes/cross-site.js';
import { registerEdgeAnswers } from './classes/edge-answers.js';
import { registerFeeds } from './classes/feeds.js';
import { registerInternal } from './classes/internal.js';
import { registerOptInFunnel } from './classes/optin-funnel.js';
import { registerNotifications } from './classes/notifications.js';
import { registerOptInPrompts } from './classes/optin-prompts.js';
import { registerPeople } from './classes/people.js';
import { registerPublicInput } from './classes/public-input.js';
import { registerSegmentTags } from './classes/segment-tags.js';
import { registerSlowClients } from './classes/slow-clients.js';
import { registerSmuggling } from './classes/smuggling.js';
import { registerSpoofing } from './classes/spoofing.js';
import { registerSsrf } from './classes/ssrf.js';
import { registerTemplates } from './classes/templates.js';
import { registerV2Input } from './classes/v2-input.js';
import { registerBestTime } from './classes/best-time.js';
import { getCtx, SEED, startSuite, stopSuite } from './support/suite.js';

describe('adversarial: hostile input and hostile networks against the running stack', function () {
  this.timeout(180_000);
  let started = 0;

  before(async () => {
    started = Date.now();
    await startSuite();
  });

  after(async () => {
    let table = '';
    try {
      table = getCtx().tally.table();
    } catch {
      // The stack never started: nothing to report.
    }
    await stopSuite();
    if (table) console.log(`\nAdversarial suite (seed ${SEED}, ${((Date.now() - started) / 1000).toFixed(1)} s):\n${table}\n`);
  });

  registerV2Input();
  registerPublicInput();
  registerSmuggling();
  registerSlowClients();
  registerSsrf();
  registerCrossSite();
  registerInternal();
  registerSpoofing();
  registerCrashers();
  registerEdgeAnswers();
  registerConsoleLogin();
  registerAdminApi();
  registerConsoleDrafts();
  registerConsoleSettings();
  registerConsoleAudit();
  registerConsoleWebhooks();
  registerConsoleMembers();
  registerOptInFunnel();
  registerPeople();
  registerTemplates();
  registerOptInPrompts();
  registerNotifications();
  registerAutomations();
  registerFeeds();
  registerSegmentTags();
  registerBestTime();
  registerConsolePeople();
  registerConsoleAutomations();
});
