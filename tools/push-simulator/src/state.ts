// What the push service knows: the subscriptions it issued, the messages it holds and its counters.
import { createECDH, randomBytes } from 'node:crypto';
import type { ReceiverKeys } from './aes128gcm.js';
import type { ReceivedMessage, SimulatedSubscription, SimulatorStats } from './types.js';
import { importP256PublicKey } from './vapid.js';

const DISTINCT_LIMIT = 100_000;
/** Accepted messages remembered to tell a duplicate: the last 500,000 to 1,000,000 (two generations). */
const MESSAGES_REMEMBERED = 500_000;

export interface SubscriptionRecord {
  subscription: SimulatedSubscription;
  applicationServerKey: string;
  receiver: ReceiverKeys;
  expired: boolean;
}

export type Counters = Omit<SimulatorStats, 'connections' | 'http2Sessions' | 'device'>;

function emptyCounters(): Counters {
  return {
    accepted: 0,
    rejected: { total: 0, byReason: {} },
    decrypted: 0,
    bytes: 0,
    byStatus: {},
    replaced: 0,
    afterExpiry: 0,
    resets: { beforeAccept: 0, afterAccept: 0 },
    duplicates: 0,
    unknownAccepted: 0,
    vapid: { verifications: 0, distinctAuthorizations: 0 },
  };
}

export class SimulatorState {
  readonly subscriptions = new Map<string, SubscriptionRecord>();
  counters: Counters = emptyCounters();
  private messages: ReceivedMessage[] = [];
  private undeliveredByTopic = new Map<string, ReceivedMessage>();
  private authorizations = new Set<string>();
  private lastAuthorization: string | undefined;
  private acceptedNow = new Set<string>();
  private acceptedBefore = new Set<string>();

  constructor(
    private readonly maxRecorded: number,
    private readonly keepReplaced = false,
  ) {}

  issue(origin: string, applicationServerKey: string): SimulatedSubscription {
    if (typeof applicationServerKey !== 'string') throw new TypeError('applicationServerKey must be a base64url string');
    try {
      importP256PublicKey(applicationServerKey);
    } catch {
      throw new TypeError('applicationServerKey must be a base64url uncompressed P-256 public key');
    }
    const ecdh = createECDH('prime256v1');
    const publicKey = ecdh.generateKeys();
    const authSecret = randomBytes(16);
    const id = randomBytes(16).toString('base64url');
    const subscription: SimulatedSubscription = {
      endpoint: `${origin}/push/${id}`,
      keys: { p256dh: publicKey.toString('base64url'), auth: authSecret.toString('base64url') },
      id,
    };
    this.subscriptions.set(id, {
      subscription,
      applicationServerKey,
      receiver: { privateKey: ecdh.getPrivateKey(), publicKey, authSecret },
      expired: false,
    });
    return { ...subscription, keys: { ...subscription.keys } };
  }

  record(message: ReceivedMessage): void {
    if (message.headers.topic !== undefined) {
      // RFC 8030 §5.4: a new message with the same Topic replaces the one still waiting.
      const key = `${message.subscriptionId}\n${message.headers.topic}`;
      const previous = this.undeliveredByTopic.get(key);
      if (previous && !previous.delivered) {
        const index = this.messages.lastIndexOf(previous);
        if (index >= 0) {
          if (!this.keepReplaced) this.messages.splice(index, 1);
          this.counters.replaced++;
        }
      }
      this.undeliveredByTopic.set(key, message);
    }
    this.messages.push(message);
    if (this.messages.length > this.maxRecorded) {
      const dropped = this.messages.splice(0, this.messages.length - this.maxRecorded);
      for (const m of dropped) {
        if (m.headers.topic !== undefined) this.undeliveredByTopic.delete(`${m.subscriptionId}\n${m.headers.topic}`);
      }
    }
  }

  received(subscriptionId?: string): ReceivedMessage[] {
    const list = subscriptionId === undefined ? this.messages : this.messages.filter((m) => m.subscriptionId === subscriptionId);
    return list.map((m) => ({ ...m, headers: { ...m.headers } }));
  }

  /** Lets tests see whether a sender reuses its VAPID header instead of signing per message. */
  noteAuthorization(value: string | undefined): void {
    // Mostly the previous push's value: === is far cheaper than hashing it for the Set.
    if (value === undefined || value === this.lastAuthorization) return;
    this.lastAuthorization = value;
    if (this.authorizations.has(value) || this.authorizations.size >= DISTINCT_LIMIT) return;
    this.authorizations.add(value);
    this.counters.vapid.distinctAuthorizations++;
  }

  /**
   * Counts a duplicate when this subscription already accepted this very message. A message is
   * its aes128gcm body's salt (RFC 8188: 16 random octets per encryption): a sender that resends
   * a push resends the same body, while a new message, even with the same text, has a new salt.
   */
  noteAccepted(subscriptionId: string, body: Buffer): void {
    if (body.length < 16) return;
    const key = subscriptionId + body.toString('base64', 0, 16);
    if (this.acceptedNow.has(key) || this.acceptedBefore.has(key)) {
      this.counters.duplicates++;
      return;
    }
    if (this.acceptedNow.size >= MESSAGES_REMEMBERED) {
      this.acceptedBefore = this.acceptedNow;
      this.acceptedNow = new Set();
    }
    this.acceptedNow.add(key);
  }

  count(status: number, reason?: string): void {
    this.counters.byStatus[status] = (this.counters.byStatus[status] ?? 0) + 1;
    if (reason !== undefined) {
      this.counters.rejected.total++;
      this.counters.rejected.byReason[reason] = (this.counters.rejected.byReason[reason] ?? 0) + 1;
    }
  }

  forget(): void {
    this.counters = emptyCounters();
    this.messages = [];
    this.undeliveredByTopic.clear();
    this.authorizations.clear();
    this.lastAuthorization = undefined;
    this.acceptedNow.clear();
    this.acceptedBefore.clear();
  }
}
