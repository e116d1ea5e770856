// Client of the delivery service's SiteRegistry (packages/contracts/protos/delivery/v1/site_registry.proto): how the
// delivery service learns a site the campaign service creates. Its not answering becomes
// RegistryUnavailableError (the create stored nothing and may be repeated), its refusals
// RegistryRefusedError, with its details.
import * as grpc from '@grpc/grpc-js';
import { loadSiteRegistryProto } from '@webpush/shared/grpc.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';
import type { SiteRegistrar } from './operators.js';

export class RegistryUnavailableError extends Error {}
export class RegistryRefusedError extends Error {}

const UNREACHED: readonly grpc.status[] = [grpc.status.UNAVAILABLE, grpc.status.DEADLINE_EXCEEDED, grpc.status.CANCELLED];

export function createSiteRegistryClient(target: string, deadlineMs: number, token: string): { register: SiteRegistrar; close(): void } {
  const { SiteRegistry } = loadSiteRegistryProto().delivery.v1;
  const client = new SiteRegistry(target, grpc.credentials.createInsecure(), withInternalToken(token));
  return {
    register: (site) =>
      new Promise((resolve, reject) => {
        client.registerSite(site, { deadline: Date.now() + deadlineMs }, (err, res) => {
          if (!err) return resolve({ vapidPublicKey: res!.vapidPublicKey });
          if (UNREACHED.includes(err.code)) return reject(new RegistryUnavailableError(`the delivery service did not answer (${grpc.status[err.code]}: ${err.details})`));
          reject(new RegistryRefusedError(`the delivery service refused the site: ${err.details}`));
        });
      }),
    close: () => client.close(),
  };
}
