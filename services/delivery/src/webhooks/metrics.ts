// The webhook sender's Prometheus metrics. No endpoint label: endpoints are customers' URLs, an
// open set; the deliveries list (GET /v2/webhooks/{id}/deliveries) is where one endpoint is read.
import { Counter, Histogram, type Registry } from 'prom-client';

/** Receivers should answer within seconds; the request timeout is 10 s by default. */
const BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface WebhookMetrics {
  /** One request to a receiver: `delivered` (2xx) or `failed` (anything else, retried or not), and its seconds. */
  attempt(outcome: 'delivered' | 'failed', seconds: number): void;
}

export function createWebhookMetrics(registry: Registry): WebhookMetrics {
  const attempts = new Counter({
    name: 'delivery_webhook_attempts_total',
    help: 'Webhook requests to customers\' receivers, by outcome (delivered: a 2xx answer)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'delivery_webhook_request_duration_seconds',
    help: 'Time from a webhook request to its answer (or its failure)',
    buckets: BUCKETS,
    registers: [registry],
  });
  return {
    attempt(outcome, seconds) {
      attempts.inc({ outcome });
      duration.observe(seconds);
    },
  };
}
