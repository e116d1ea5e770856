// gRPC adapter for delivery.v1.ConsoleData (packages/contracts/protos/delivery/v1/console_data.proto): decode → one
// domain call → encode (answers and refusals: grpc-answers.ts).
import type { ConsoleDataHandlers } from '@webpush/contracts/generated/delivery/v1/ConsoleData.js';
import type { Logger } from '@webpush/shared/log.js';
import { answer } from '../grpc-answers.js';
import type { ConsoleData, SiteSettings } from './console-data.js';
import type { TestPush } from './test-push.js';

/** A cap and quiet hours travel as messages (absent: none), the zone as the one in force. */
const settingsAnswer = (s: SiteSettings) => ({ vapidPublicKey: s.vapidPublicKey, publicId: s.publicId, frequencyCap: s.frequencyCap, timeZone: s.timeZone, quietHours: s.quietHours });

export function createConsoleDataHandlers(data: ConsoleData, sendTestPush: TestPush, log: Logger): ConsoleDataHandlers {
  return {
    CampaignSeries: ({ request: r }, callback) =>
      answer(log, 'CampaignSeries', callback, async () => {
        const s = await data.series(r.siteId, r.campaignId);
        return { resolution: s.resolution, points: s.points, startedAt: s.startedAt ?? '' };
      }),
    AudienceDaily: ({ request: r }, callback) => answer(log, 'AudienceDaily', callback, async () => ({ days: await data.daily(r.siteId, r.days) })),
    AudienceBrowsers: ({ request: r }, callback) => answer(log, 'AudienceBrowsers', callback, async () => ({ browsers: await data.browsers(r.siteId) })),
    RenameTopic: ({ request: r }, callback) => answer(log, 'RenameTopic', callback, () => data.renameTopic(r.siteId, r.from, r.to)),
    MergeTopics: ({ request: r }, callback) => answer(log, 'MergeTopics', callback, () => data.mergeTopics(r.siteId, r.from, r.to)),
    DeleteTopic: ({ request: r }, callback) => answer(log, 'DeleteTopic', callback, () => data.deleteTopic(r.siteId, r.name)),
    SiteSettings: ({ request: r }, callback) => answer(log, 'SiteSettings', callback, async () => settingsAnswer(await data.siteSettings(r.siteId))),
    UpdateSendingSettings: ({ request: r }, callback) =>
      answer(log, 'UpdateSendingSettings', callback, async () =>
        settingsAnswer(
          await data.updateSendingSettings(r.siteId, {
            ...(r.setFrequencyCap ? { frequencyCap: r.frequencyCap ? { campaigns: r.frequencyCap.campaigns, hours: r.frequencyCap.hours } : null } : {}),
            ...(r.setTimeZone ? { timeZone: r.timeZone ?? null } : {}),
            ...(r.setQuietHours ? { quietHours: r.quietHours ? { from: r.quietHours.from, to: r.quietHours.to } : null } : {}),
            validateOnly: r.validateOnly,
          }),
        ),
      ),
    OptInPrompts: ({ request: r }, callback) => answer(log, 'OptInPrompts', callback, async () => ({ promptsJson: JSON.stringify(await data.optInPrompts(r.siteId)) })),
    UpdateOptInPrompts: ({ request: r }, callback) =>
      answer(log, 'UpdateOptInPrompts', callback, async () => ({ promptsJson: JSON.stringify(await data.updateOptInPrompts(r.siteId, r.bodyJson)) })),
    SendTestPush: ({ request: r }, callback) =>
      answer(log, 'SendTestPush', callback, () => sendTestPush({ siteId: r.siteId, endpoint: r.endpoint, p256dh: r.p256dh, auth: r.auth, siteName: r.siteName, link: r.link })),
  };
}
