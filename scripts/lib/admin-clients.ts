// The operator CLI's way to the services: their admin gRPC APIs (campaign.v1.SiteAdmin,
// delivery.v1.SiteRegistry), each service changing its own schema. Addresses and token from the
// environment (CAMPAIGN_GRPC_TARGET, AUDIENCE_GRPC_TARGET, OPERATOR_INTERNAL_TOKEN: the names the
// services' own settings use), else the stack `npm start` runs on this machine.
import * as grpc from '@grpc/grpc-js';
import { ConfigError } from '@webpush/shared/config.js';
import { loadSiteAdminProto, loadSiteRegistryProto } from '@webpush/shared/grpc.js';
import { internalToken, TOKEN_VARIABLE, withInternalToken } from '@webpush/shared/internal-auth.js';
import type { SiteAdminClient } from '@webpush/contracts/generated/campaign/v1/SiteAdmin.js';
import type { SiteRegistryClient } from '@webpush/contracts/generated/delivery/v1/SiteRegistry.js';
import { localSecrets, runningStack } from './local-env.js';

/** Long enough for a create, which waits for the delivery service (its own deadline, 5 s by default). */
const DEADLINE_MS = 30_000;

/** The service refused the request (bad input, nothing of that name, the token): the CLI exits 2. */
export class AdminRefusal extends Error {}
/** The service did not answer, or could not do it now: the CLI exits 1; the same command may be run again. */
export class AdminUnavailable extends Error {}

const REFUSALS: readonly grpc.status[] = [
  grpc.status.INVALID_ARGUMENT,
  grpc.status.NOT_FOUND,
  grpc.status.ALREADY_EXISTS,
  grpc.status.FAILED_PRECONDITION,
  grpc.status.OUT_OF_RANGE,
];

export interface AdminClients {
  campaign(): SiteAdminClient;
  delivery(): SiteRegistryClient;
  close(): void;
}

/** Clients made on first use: a command that needs one service does not need the other's address. */
export function adminClients(): AdminClients {
  let campaign: SiteAdminClient | undefined;
  let delivery: SiteRegistryClient | undefined;
  return {
    campaign: () => (campaign ??= new (loadSiteAdminProto().campaign.v1.SiteAdmin)(target('campaign'), grpc.credentials.createInsecure(), withInternalToken(token()))),
    delivery: () => (delivery ??= new (loadSiteRegistryProto().delivery.v1.SiteRegistry)(target('delivery'), grpc.credentials.createInsecure(), withInternalToken(token()))),
    close() {
      campaign?.close();
      delivery?.close();
    },
  };
}

const TARGET_VARIABLE = { campaign: 'CAMPAIGN_GRPC_TARGET', delivery: 'AUDIENCE_GRPC_TARGET' } as const;

let found: { campaign?: string; delivery?: string; token?: string } = {};

/** Reads what the environment does not say from the running stack, once, before any client is made. */
export async function resolveAdminTargets(): Promise<void> {
  found = { campaign: process.env.CAMPAIGN_GRPC_TARGET, delivery: process.env.AUDIENCE_GRPC_TARGET, token: process.env.OPERATOR_INTERNAL_TOKEN };
  if (found.campaign && found.delivery && found.token) return;
  const stack = await runningStack();
  if (!stack?.campaignGrpcTarget) return;
  found.campaign ||= stack.campaignGrpcTarget;
  found.delivery ||= stack.deliveryGrpcTarget;
  found.token ||= (await localSecrets()).OPERATOR_INTERNAL_TOKEN;
}

function target(service: 'campaign' | 'delivery'): string {
  const value = found[service];
  if (!value) throw new ConfigError(`set ${TARGET_VARIABLE[service]} to the ${service} service's gRPC address (host:port), or start the stack (npm start)`);
  return value;
}

function token(): string {
  return internalToken({ [TOKEN_VARIABLE.operator]: found.token }, TOKEN_VARIABLE.operator);
}

/** One unary call, its failure as AdminRefusal or AdminUnavailable with the service's words. */
export function call<Res>(service: 'campaign' | 'delivery', invoke: (options: grpc.CallOptions, callback: grpc.requestCallback<Res>) => void): Promise<Res> {
  return new Promise((resolve, reject) => {
    invoke({ deadline: Date.now() + DEADLINE_MS }, (err, res) => {
      if (!err) return resolve(res!);
      if (REFUSALS.includes(err.code)) return reject(new AdminRefusal(err.details));
      if (err.code === grpc.status.PERMISSION_DENIED || err.code === grpc.status.UNAUTHENTICATED) {
        return reject(new AdminRefusal(`the ${service} service at ${found[service]} refused the operator token (${TOKEN_VARIABLE.operator}): ${err.details}`));
      }
      reject(new AdminUnavailable(`the ${service} service at ${found[service]} did not do it (${grpc.status[err.code]}): ${err.details}`));
    });
  });
}
