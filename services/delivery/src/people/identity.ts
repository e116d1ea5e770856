// Identified subscribers (docs/people.md): the site plugin links the browser's subscription to
// the site's own user id once the id's signature checks out (`webpush('identify', id, sig)`),
// and unlinks it on logout; the operators show and rotate the site's identity secret.
import type { Pool } from '@webpush/shared/db.js';
import { BAD_CHARACTERS, hasBadCharacters } from '@webpush/shared/text.js';
import { externalIdFault, MAX_EXTERNAL_ID_CHARS } from '@webpush/contracts/external-id.js';
import { MAX_ENDPOINT_CHARS } from '../audience/index.js';
import { DeliveryOperatorError, SiteNotFoundError, ValidationError } from '../errors.js';
import { HttpError } from '../http/http-error.js';
import { findSiteByPublicId, type VapidEncryptionKeys } from '../sites/index.js';
import { newIdentitySecret, openIdentitySecret, sealIdentitySecret, signatureMatches } from './identity-secret.js';
import { identitySecretsOf, insertIdentitySecret, linkSubscription, rotateIdentitySecret, unlinkSubscription } from './people-store.js';

export { MAX_EXTERNAL_ID_CHARS };
export const DEFAULT_IDENTITY_OVERLAP_HOURS = 24;
export const MAX_IDENTITY_OVERLAP_HOURS = 168;

export const IDENTITY_MESSAGES = Object.freeze({
  externalId: `externalId must be a string of 1 to ${MAX_EXTERNAL_ID_CHARS} characters without control characters`,
  externalIdCharacters: `externalId ${BAD_CHARACTERS}`,
  signature: "signature must be 64 hexadecimal digits: HMAC-SHA256 of externalId under the site's identity secret",
  endpoint: `endpoint must be a string of at most ${MAX_ENDPOINT_CHARS} characters`,
  endpointCharacters: `endpoint ${BAD_CHARACTERS}`,
  // 403: the visitor cannot fix either; the site's server or its operator can.
  noSecret: 'Identity is not enabled for this site (it has no identity secret)',
  badSignature: 'signature does not match externalId',
});

/** A site's user id as the plugin and the API take it (the rule: contracts' external-id.ts), or its message. */
export function externalIdProblem(value: unknown): string | null {
  const fault = externalIdFault(value);
  return fault === null ? null : fault === 'characters' ? IDENTITY_MESSAGES.externalIdCharacters : IDENTITY_MESSAGES.externalId;
}

function endpointOf(body: Record<string, unknown>, messages: string[]): string {
  const endpoint = body.endpoint;
  if (typeof endpoint !== 'string' || endpoint.length < 1 || endpoint.length > MAX_ENDPOINT_CHARS) messages.push(IDENTITY_MESSAGES.endpoint);
  else if (hasBadCharacters(endpoint)) messages.push(IDENTITY_MESSAGES.endpointCharacters);
  return endpoint as string;
}

export function createIdentity(deps: { pool: Pool; keys: VapidEncryptionKeys }) {
  const { pool, keys } = deps;

  async function siteIdOf(publicId: string): Promise<string> {
    const site = await findSiteByPublicId(pool, publicId);
    if (!site) throw new SiteNotFoundError();
    return site.siteId;
  }

  /**
   * Links the active subscription with `endpoint` to the person `externalId` once `signature`
   * checks out under the site's secret (or the previous one during a rotation). `identified` is
   * false when no active subscription has the endpoint: the plugin registers it, then identifies
   * again. Order: the site (404), the body (400), the secret and signature (403), then the write.
   */
  async function identify(publicId: string, body: Record<string, unknown>): Promise<{ identified: boolean }> {
    const siteId = await siteIdOf(publicId);
    const messages: string[] = [];
    const endpoint = endpointOf(body, messages);
    const idProblem = externalIdProblem(body.externalId);
    if (idProblem) messages.push(idProblem);
    if (typeof body.signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(body.signature)) messages.push(IDENTITY_MESSAGES.signature);
    if (messages.length > 0) throw new ValidationError(messages);
    const externalId = body.externalId as string;
    const sealed = await identitySecretsOf(pool, siteId);
    if (!sealed) throw new HttpError(403, IDENTITY_MESSAGES.noSecret);
    const secrets = [sealed.secretEnc, ...(sealed.previousSecretEnc ? [sealed.previousSecretEnc] : [])].map((s) => openIdentitySecret(s, siteId, keys));
    if (!signatureMatches(secrets, externalId, body.signature as string)) throw new HttpError(403, IDENTITY_MESSAGES.badSignature);
    // A new or moved link is signalled to the campaign service's welcome automations (people-store).
    return { identified: (await linkSubscription(pool, siteId, endpoint, externalId)) !== null };
  }

  /** The visitor logged out: the subscription with `endpoint` no longer belongs to anyone. Needs no signature: only the browser holds its endpoint. */
  async function logout(publicId: string, body: Record<string, unknown>): Promise<{ unlinked: boolean }> {
    const siteId = await siteIdOf(publicId);
    const messages: string[] = [];
    const endpoint = endpointOf(body, messages);
    if (messages.length > 0) throw new ValidationError(messages);
    return { unlinked: await unlinkSubscription(pool, siteId, endpoint) };
  }

  /** The operators' view of the site's secret: made on first asking (`created`), shown in the clear to them only. */
  async function identitySecret(siteId: string): Promise<{ secret: string; created: boolean }> {
    const existing = await identitySecretsOf(pool, siteId);
    if (existing) return { secret: openIdentitySecret(existing.secretEnc, siteId, keys), created: false };
    const secret = newIdentitySecret();
    if (await insertIdentitySecret(pool, siteId, sealIdentitySecret(secret, siteId, keys))) return { secret, created: true };
    return identitySecret(siteId); // another operator made it at the same moment: show theirs
  }

  /** A new secret; the one before stays accepted for `overlapHours` (0 to 168), so pages signed with it keep working while the new one is deployed. */
  async function rotateSecret(siteId: string, overlapHours: number): Promise<{ secret: string; overlapHours: number }> {
    if (!Number.isInteger(overlapHours) || overlapHours < 0 || overlapHours > MAX_IDENTITY_OVERLAP_HOURS) {
      throw new DeliveryOperatorError(`the overlap must be a whole number of hours from 0 to ${MAX_IDENTITY_OVERLAP_HOURS}`);
    }
    const secret = newIdentitySecret();
    await rotateIdentitySecret(pool, siteId, sealIdentitySecret(secret, siteId, keys), overlapHours);
    return { secret, overlapHours };
  }

  return { identify, logout, identitySecret, rotateSecret };
}

export type Identity = ReturnType<typeof createIdentity>;
