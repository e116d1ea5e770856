// A site's public configuration as the site plugin reads it (GET /public/v1/sites/{publicId}/config
// on the delivery service, which owns the VAPID keys): the console's settings page shows the VAPID
// public key from the same answer the plugin gets, asked for with the gateway's token like every
// request the gateway forwards there.
import { INTERNAL_AUTH_HEADER } from '../../../services/shared/src/internal-auth.js';
import { CLIENT_ADDRESS_HEADER } from '../../../services/shared/src/edge-headers.js';

export interface SiteConfigSource {
  /** The site's VAPID public key (base64url). Rejects when the delivery service does not answer it. */
  vapidPublicKey(publicId: string, ctx: { requestId: string }): Promise<string>;
}

export function createSiteConfigSource(opts: { deliveryHttpUrl: string; internalToken: string; timeoutMs: number }): SiteConfigSource {
  return {
    async vapidPublicKey(publicId, ctx) {
      const res = await fetch(`${opts.deliveryHttpUrl}/public/v1/sites/${encodeURIComponent(publicId)}/config`, {
        headers: { [INTERNAL_AUTH_HEADER]: opts.internalToken, [CLIENT_ADDRESS_HEADER]: '127.0.0.1', 'x-request-id': ctx.requestId },
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      const body = (await res.json().catch(() => null)) as { vapidPublicKey?: unknown } | null;
      if (!res.ok || typeof body?.vapidPublicKey !== 'string') throw new Error(`the delivery service answered ${res.status} for a site's config`);
      return body.vapidPublicKey;
    },
  };
}
