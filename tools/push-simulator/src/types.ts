import type { HourlyPopulation } from './hourly.js';

export type SimulatorMode = 'record' | 'sink';

export interface DeviceOptions {
  /** Probability that a delivered message shows a notification (an impression is reported). */
  impressionRate: number;
  /** Probability that a shown notification is clicked (of impressions, not of messages). */
  clickRate: number;
  /** Wait before reporting, like a service worker that wakes up late. */
  delayMs?: number;
  /** Makes the impression/click draws repeatable for the same arrival order. */
  seed?: number;
  /** Tracking posts in flight at once (default 16). */
  concurrency?: number;
  /** Engagement that depends on the hour, per device (hourly.ts): the rates above hold in its peak hours only. */
  hourly?: HourlyPopulation;
}

export interface PushSimulatorOptions {
  host?: string;
  port?: number;
  tls?: boolean;
  mode?: SimulatorMode;
  /** Sink mode decrypts one message in this many (default 100). */
  sinkSampleEvery?: number;
  /** Where devices report: `${trackingBaseUrl}/public/v1/events`. Required with `device`. */
  trackingBaseUrl?: string;
  device?: DeviceOptions;
  /** Largest accepted distance between now and the VAPID JWT's exp (default 86400, RFC 8292 §2). */
  maxVapidTtlSec?: number;
  /**
   * Answer VAPID as Apple's web push service (web.push.apple.com, Safari's) does: every problem
   * with the JWT is 403 `{"reason":"BadJwtToken"}` (developer.apple.com, "Sending web push
   * notifications in web apps and browsers"), and so is a `sub` naming no contact Apple accepts
   * (vapid.ts, appleRefusesSubject). Default false.
   */
  apple?: boolean;
  /** Seed for behaviour probabilities (resets); unseeded → Math.random. */
  seed?: number;
  /** Record mode keeps at most this many messages, oldest dropped first (default 100000). */
  maxRecorded?: number;
  /**
   * Record mode: keep a message that a later one with the same Topic replaced (it is still
   * counted in `replaced`), so `received()` holds every accepted copy — for tests that count
   * repeats per campaign. Default false (RFC 8030 §5.4 replacement).
   */
  keepReplaced?: boolean;
  /**
   * A far push service: every push is answered this many milliseconds after its body arrived
   * (default 0). Each waits on its own timer, so other streams and connections are not held up;
   * close() ends every wait.
   */
  latencyMs?: number;
  /**
   * A push service of limited capacity: it handles this many pushes a second, one after another
   * in arrival order, so each push waits its turn behind those queued before it (on top of
   * latencyMs) and latency grows with the load. A push whose sender stopped waiting is still
   * handled and accepted (stats().duplicates counts a message accepted twice). Default: unset,
   * no limit.
   */
  capacityPerSecond?: number;
  /**
   * The SETTINGS_MAX_CONCURRENT_STREAMS the HTTP/2 server advertises: requests one connection may
   * have in flight. Default: Node's (4294967295, i.e. no limit). HTTP/1.1 and tls: false ignore it.
   */
  maxConcurrentStreams?: number;
  /** Log lines on stderr; default silent (tests). */
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

export interface SimulatedSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  id: string;
}

export interface ReceivedMessage {
  id: string;
  subscriptionId: string;
  payload: string;
  headers: { ttl: number; urgency: string | undefined; topic: string | undefined };
  /** epoch milliseconds */
  receivedAt: number;
  /** true once a device (device mode) took it; only undelivered messages are replaced by Topic */
  delivered: boolean;
}

export interface Behaviour {
  /** Answer this status instead of accepting (e.g. 400/403/404/410/413/429/500/503). */
  status?: number;
  /** Retry-After value sent with `status` (seconds or an HTTP-date). */
  retryAfter?: string;
  /** Delay before answering. */
  latencyMs?: number;
  /** Probability of storing the message and then destroying the connection instead of answering 201. */
  resetAfterAccept?: number;
  /** Probability of destroying the connection before doing anything with the message. */
  resetBeforeAccept?: number;
  /** Only pushes to this subscription id; default every push. */
  forSubscription?: string;
  /** Applies to this many pushes, then is dropped; default forever. */
  times?: number;
}

export interface DeviceStats {
  impressionsSent: number;
  clicksSent: number;
  errors: number;
  dropped: number;
}

export interface SimulatorStats {
  accepted: number;
  rejected: { total: number; byReason: Record<string, number> };
  decrypted: number;
  /** request body bytes received on push requests */
  bytes: number;
  byStatus: Record<string, number>;
  connections: number;
  http2Sessions: number;
  replaced: number;
  afterExpiry: number;
  resets: { beforeAccept: number; afterAccept: number };
  /**
   * Pushes accepted for a message this subscription had already accepted (the same aes128gcm
   * body, i.e. a resend): each one a notification shown twice. Remembers the last 500,000 to
   * 1,000,000 accepted messages.
   */
  duplicates: number;
  /** sink mode: pushes accepted for subscription ids the simulator never issued (seeded audiences) */
  unknownAccepted: number;
  /** signature checks done, and distinct Authorization values seen (capped at 100000) */
  vapid: { verifications: number; distinctAuthorizations: number };
  device: DeviceStats;
}

export interface PushSimulator {
  readonly origin: string;
  readonly mode: SimulatorMode;
  /** PEM of the CA that signed the server certificate; empty string when tls is false. */
  readonly caCertPem: string;
  /** Path of a file holding caCertPem (e.g. for NODE_EXTRA_CA_CERTS); empty string when tls is false. */
  readonly caCertFile: string;
  createSubscription(applicationServerKey: string): SimulatedSubscription;
  expireSubscription(id: string): boolean;
  received(subscriptionId?: string): ReceivedMessage[];
  stats(): SimulatorStats;
  setBehaviour(b: Behaviour): void;
  clearBehaviours(): void;
  reset(): void;
  /** Resolves once every queued device report has been sent (or failed); rejects after timeoutMs. */
  whenDeviceIdle(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}
