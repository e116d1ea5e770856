// The ConsoleData gRPC calls as promises, as the gateway makes them, and the refusals they answer.
import type * as grpc from '@grpc/grpc-js';
import type { ConsoleDataClient } from '@webpush/contracts/generated/delivery/v1/ConsoleData.js';

type Unary<Req, Res> = (req: Req, cb: (err: grpc.ServiceError | null, res?: Res) => void) => unknown;

function unary<Req, Res>(fn: Unary<Req, Res>, req: Req): Promise<Res> {
  return new Promise((resolve, reject) => fn(req, (err, res) => (err ? reject(err) : resolve(res as Res))));
}

export function consoleCalls(client: ConsoleDataClient) {
  return {
    series: (siteId: string, campaignId: string) => unary(client.CampaignSeries.bind(client), { siteId, campaignId }),
    daily: (siteId: string, days: number) => unary(client.AudienceDaily.bind(client), { siteId, days }),
    browsers: (siteId: string) => unary(client.AudienceBrowsers.bind(client), { siteId }),
    rename: (siteId: string, from: string, to: string) => unary(client.RenameTopic.bind(client), { siteId, from, to }),
    merge: (siteId: string, from: string[], to: string) => unary(client.MergeTopics.bind(client), { siteId, from, to }),
    remove: (siteId: string, name: string) => unary(client.DeleteTopic.bind(client), { siteId, name }),
    settings: (siteId: string) => unary(client.SiteSettings.bind(client), { siteId }),
    prompts: async (siteId: string) => JSON.parse((await unary(client.OptInPrompts.bind(client), { siteId })).promptsJson),
    updatePrompts: async (siteId: string, body: unknown) =>
      JSON.parse((await unary(client.UpdateOptInPrompts.bind(client), { siteId, bodyJson: typeof body === 'string' ? body : JSON.stringify(body) })).promptsJson),
  };
}

/** The refusal a call answers (fails the test when it succeeds). */
export async function refusal(promise: Promise<unknown>): Promise<{ code: number; details: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as grpc.ServiceError;
    return { code: e.code, details: e.details };
  }
  throw new Error('expected the call to be refused');
}
