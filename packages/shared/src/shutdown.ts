// How long a service takes to stop, in one place: the services read DRAIN_MS, and the deploy
// files (deploy/k8s/base/*.yaml `terminationGracePeriodSeconds` and `preStop`,
// docker-compose.yml `stop_grace_period`) must agree with these numbers;
// test/deploy/stop-grace.test.ts checks that they do, and docs/operations.md ("Stopping") states
// them. Order on SIGTERM: the orchestrator's preStop sleep (endpoint removal spreads), then each
// service drains in-flight requests and calls for up to DRAIN_MS, then stops the rest (the
// delivery service: its plugin port, the chunk in hand, buffered reports, Kafka, pools).

/** The preStop sleep before SIGTERM in Kubernetes (compose has none: it sends SIGTERM at once). */
export const PRE_STOP_SECONDS = 5;

/**
 * How long in-flight HTTP requests (gateway) and gRPC calls (campaign, delivery) get to finish
 * after SIGTERM before their connections are closed: a subscriber or campaign export streams
 * for as long as it needs, and one still running after this is cut (the client asks again).
 */
export const DRAIN_MS = 30_000;

/** What stopping the rest may take after the drain (the delivery service's chunk in hand and flushes). */
export const AFTER_DRAIN_SECONDS = 25;

/** The time the orchestrator gives from the stop decision to SIGKILL, preStop included. */
export const STOP_GRACE_SECONDS = PRE_STOP_SECONDS + DRAIN_MS / 1000 + AFTER_DRAIN_SECONDS;
