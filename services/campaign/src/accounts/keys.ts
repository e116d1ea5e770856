// A site's API keys as its owners manage them in the console: listed by prefix with their label
// and dates, created with a label (the key shown once), revoked, rotated (a new key with the old
// one's label, the old one revoked, in one transaction). Keys are made as the operators make them
// (sites/operators.ts); only their SHA-256 is stored.
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { hasBadCharacters } from '@webpush/shared/text.js';
import { withField } from '@webpush/shared/console-texts.js';
import { ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { MESSAGES } from '../base/texts.js';
import { newApiKey, toKey, type KeyInfo, insertKey, revokeActiveKeys, selectKey, selectKeys, selectSiteById } from '../sites/index.js';
import { ConsoleConflictError, ConsoleNotFoundError } from './errors.js';

const LABEL_MAX = 100;
const CONTROL = /[\p{Cc}]/u;

export interface IssuedConsoleKey {
  key: KeyInfo;
  /** The full key: answered once, never stored. */
  apiKey: string;
}

/** The label as stored (trimmed); throws ValidationError with the label's message. */
export function checkLabel(raw: string): string {
  if (hasBadCharacters(raw)) throw new ValidationError([withField(MESSAGES.fieldCharacters, 'label')]);
  const label = raw.trim();
  const length = [...label].length;
  if (length < 1 || length > LABEL_MAX) throw new ValidationError([MESSAGES.labelLength]);
  if (CONTROL.test(label)) throw new ValidationError([MESSAGES.labelCharacters]);
  return label;
}

export function createConsoleKeys(pool: Pool) {
  const keyNotFound = () => new ConsoleNotFoundError(MESSAGES.keyNotFound);

  async function requireSite(siteId: string): Promise<void> {
    if (!isUuid(siteId) || !(await selectSiteById(pool, siteId))) throw new ConsoleNotFoundError(MESSAGES.siteNotFound);
  }

  return {
    async list(siteId: string): Promise<KeyInfo[]> {
      await requireSite(siteId);
      return (await selectKeys(pool, siteId)).map(toKey);
    },

    async create(siteId: string, rawLabel: string): Promise<IssuedConsoleKey> {
      const label = checkLabel(rawLabel);
      await requireSite(siteId);
      const { key, hash, prefix } = newApiKey();
      const keyId = await insertKey(pool, siteId, hash, prefix, label);
      return { key: toKey((await selectKey(pool, siteId, keyId))!), apiKey: key };
    },

    /** The key, revoked (a key revoked already is answered as it is). */
    async revoke(siteId: string, keyId: string): Promise<KeyInfo> {
      if (!isUuid(siteId) || !isUuid(keyId)) throw keyNotFound();
      return withTransaction(pool, async (tx) => {
        const key = await selectKey(tx, siteId, keyId, true);
        if (!key) throw keyNotFound();
        if (key.revoked_at === null) await revokeActiveKeys(tx, siteId, { id: keyId });
        return toKey((await selectKey(tx, siteId, keyId))!);
      });
    },

    /** A new key with the old one's label; the old one revoked. A revoked key cannot be rotated. */
    async rotate(siteId: string, keyId: string): Promise<IssuedConsoleKey & { revoked: KeyInfo }> {
      if (!isUuid(siteId) || !isUuid(keyId)) throw keyNotFound();
      const { key: apiKey, hash, prefix } = newApiKey();
      return withTransaction(pool, async (tx) => {
        const old = await selectKey(tx, siteId, keyId, true);
        if (!old) throw keyNotFound();
        if (old.revoked_at !== null) throw new ConsoleConflictError(MESSAGES.keyAlreadyRevoked);
        await revokeActiveKeys(tx, siteId, { id: keyId });
        const newId = await insertKey(tx, siteId, hash, prefix, old.label);
        return {
          key: toKey((await selectKey(tx, siteId, newId))!),
          apiKey,
          revoked: toKey((await selectKey(tx, siteId, keyId))!),
        };
      });
    },
  };
}

export type ConsoleKeys = ReturnType<typeof createConsoleKeys>;
