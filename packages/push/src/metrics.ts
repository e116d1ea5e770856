// The push path's Prometheus metrics, by push service (the host of the endpoint's origin:
// fcm.googleapis.com, updates.push.services.mozilla.com…). Hosts are an open set — a subscriber
// chooses the endpoint — so the label is capped (boundedLabel): past PUSH_SERVICE_LABELS
// distinct hosts the rest share `other`, and a flood of odd endpoints cannot blow up the series.
import { Counter, Histogram, type CounterConfiguration, type LabelValues, type Registry } from 'prom-client';
import { boundedLabel } from '@webpush/shared/observability/metrics.js';
import type { PushResult } from './types.js';

/** Distinct push-service hosts named in labels; the real ones are a handful. */
export const PUSH_SERVICE_LABELS = 50;

/** Origins whose push-service label is remembered (a push service has few origins). */
const ORIGINS_REMEMBERED = 1000;

/** Push services answer in tens to hundreds of milliseconds; the request timeout is 10 s. */
const PUSH_LATENCY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface PushMetrics {
  /**
   * One request that went to a push service: its answer — an HTTP status, or the client's error
   * code (`timeout`, `reset`, `network`) — and the seconds it took.
   */
  attempt(origin: string, answer: number | string, seconds: number): void;
  /** An attempt that will be retried, by cause (a status, `timeout`, `reset`, `network`). */
  retried(origin: string, cause: string): void;
  /** A push's final outcome. */
  pushed(origin: string, outcome: PushResult['outcome']): void;
}

export function createPushMetrics(registry: Registry): PushMetrics {
  const label = boundedLabel(PUSH_SERVICE_LABELS);
  // Every push asks two or three times: parse each origin once, not a URL per call. Bounded like
  // the labels, so odd endpoints cannot grow it (past the bound an origin is parsed each time).
  const byOrigin = new Map<string, string>();
  const pushServiceOf = (origin: string) => {
    let name = byOrigin.get(origin);
    if (name === undefined) {
      name = label(hostOf(origin));
      if (byOrigin.size < ORIGINS_REMEMBERED) byOrigin.set(origin, name);
    }
    return name;
  };
  const pushes = talliedCounter({
    name: 'delivery_pushes_total',
    help: 'Pushes finished, by final outcome (sent, expired, failed) and push service.',
    labelNames: ['outcome', 'push_service'] as const,
    registers: [registry],
  });
  const responses = talliedCounter({
    name: 'delivery_push_responses_total',
    help: 'Requests to push services, by push service, status class (2xx…5xx, or error) and code (the HTTP status, or timeout, reset, network).',
    labelNames: ['push_service', 'status_class', 'code'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'delivery_push_request_duration_seconds',
    help: 'Time from sending a push request to its answer (or its error), by push service.',
    labelNames: ['push_service'] as const,
    buckets: PUSH_LATENCY_BUCKETS,
    registers: [registry],
  });
  const retries = new Counter({
    name: 'delivery_push_retries_total',
    help: 'Push attempts that will be retried, by push service and cause (a status, timeout, reset, network).',
    labelNames: ['push_service', 'cause'] as const,
    registers: [registry],
  });
  // The label objects of every push's calls, made once per push service and answer code or
  // outcome (bounded by the labels: statuses 100–599, the client's error codes, `other`): a new
  // object per call was most of what the metrics allocated, and the tallies count by object.
  type Answered = LabelValues<'push_service' | 'status_class' | 'code'>;
  const labelsOf = new Map<string, { service: { push_service: string }; byStatus: Map<number, Answered>; byCode: Map<string, Answered>; byOutcome: Map<string, LabelValues<'outcome' | 'push_service'>> }>();
  const labelsFor = (push_service: string) => {
    let l = labelsOf.get(push_service);
    if (!l) labelsOf.set(push_service, (l = { service: { push_service }, byStatus: new Map(), byCode: new Map(), byOutcome: new Map() }));
    return l;
  };
  return {
    attempt(origin, answer, seconds) {
      const push_service = pushServiceOf(origin);
      const l = labelsFor(push_service);
      let answered = typeof answer === 'number' ? l.byStatus.get(answer) : undefined;
      if (!answered) {
        const { status_class, code } = codeLabels(answer);
        answered = l.byCode.get(code);
        if (!answered) l.byCode.set(code, (answered = { push_service, status_class, code }));
        // A number that is no status (code `other`) is not remembered: numbers are an open set.
        if (typeof answer === 'number' && code !== 'other') l.byStatus.set(answer, answered);
      }
      responses.add(answered);
      latency.observe(l.service, seconds);
    },
    retried(origin, cause) {
      retries.inc({ push_service: pushServiceOf(origin), cause: codeLabels(cause).code });
    },
    pushed(origin, outcome) {
      const l = labelsFor(pushServiceOf(origin));
      let labels = l.byOutcome.get(outcome);
      if (!labels) l.byOutcome.set(outcome, (labels = { push_service: l.service.push_service, outcome }));
      pushes.add(labels);
    },
  };
}

/**
 * A counter whose increments are summed by label object and handed to prom-client when the
 * registry is read (its `collect`): prom-client hashes and checks the labels on every inc —
 * a string and a few hundred bytes per push, twice. Callers pass the same object for the same
 * labels (bounded, as above), so the tally holds one entry per series at most.
 */
function talliedCounter<T extends string>(config: CounterConfiguration<T>): { add(labels: LabelValues<T>): void } {
  const tally = new Map<LabelValues<T>, number>();
  // Kept by the registry it registers with, and read through it.
  new Counter<T>({
    ...config,
    collect() {
      for (const [labels, n] of tally) this.inc(labels, n);
      tally.clear();
    },
  });
  return {
    add(labels) {
      tally.set(labels, (tally.get(labels) ?? 0) + 1);
    },
  };
}

/** `https://fcm.googleapis.com` → `fcm.googleapis.com`; anything unparsable → `invalid`. */
function hostOf(origin: string): string {
  try {
    return new URL(origin).host || 'invalid';
  } catch {
    return 'invalid';
  }
}

const ERROR_CODES = new Set(['timeout', 'reset', 'network']);

/** Both labels from a closed set: a status 100–599 or one of the client's error codes. */
function codeLabels(answer: number | string): { status_class: string; code: string } {
  const status = typeof answer === 'number' ? answer : /^\d{3}$/.test(answer) ? Number(answer) : NaN;
  if (Number.isInteger(status) && status >= 100 && status <= 599) return { status_class: `${String(status)[0]}xx`, code: String(status) };
  return { status_class: 'error', code: typeof answer === 'string' && ERROR_CODES.has(answer) ? answer : 'other' };
}
