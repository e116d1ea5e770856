// Loads the .proto contracts from packages/contracts/protos/ with exactly the options the committed types in
// packages/contracts/src/generated were generated with (see the `gen:proto` script): keep them in step.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { DRAIN_MS } from './shutdown.js';
import type { ProtoGrpcType as CampaignProto } from '@webpush/contracts/generated/campaign.js';
import type { ProtoGrpcType as ConsoleProto } from '@webpush/contracts/generated/console.js';
import type { ProtoGrpcType as AudienceProto } from '@webpush/contracts/generated/audience.js';
import type { ProtoGrpcType as WebhooksProto } from '@webpush/contracts/generated/webhooks.js';
import type { ProtoGrpcType as RunsProto } from '@webpush/contracts/generated/runs.js';
import type { ProtoGrpcType as ConsoleDataProto } from '@webpush/contracts/generated/console_data.js';
import type { ProtoGrpcType as AuditLogProto } from '@webpush/contracts/generated/audit_log.js';
import type { ProtoGrpcType as SiteAdminProto } from '@webpush/contracts/generated/site_admin.js';
import type { ProtoGrpcType as SiteRegistryProto } from '@webpush/contracts/generated/site_registry.js';
import { safeText } from './text.js';

/** Far above the longest message a service makes (every create field wrong at once: ~1.2 kB). */
export const MAX_DETAILS_CHARS = 4000;

/**
 * A refusal's gRPC status, its `details` being the text the gateway answers as `message`.
 * Details travel as the `grpc-message` HTTP/2 trailer, so whatever they hold must survive two
 * things outside our code: grpc-js runs `encodeURI` on them (a lone surrogate throws URIError
 * from inside the callback, which once took the whole process down), and the caller's HPACK
 * decoder refuses a header literal over 64 KiB with a connection-level COMPRESSION_ERROR,
 * stalling every call multiplexed on that connection (all tenants) until its deadline. Messages
 * are validated and bounded where they are made; this is the last defense.
 */
export function refusalStatus(code: grpc.status, details: string): { code: grpc.status; details: string } {
  return { code, details: safeText(details, MAX_DETAILS_CHARS) };
}

/** The trailing metadata key of a wait in whole seconds: a throttled call's (429) or a busy service's (503). */
export const RETRY_AFTER_METADATA = 'retry-after';

/** Details of a busy answer; the gateway answers its own text. */
export const BUSY_DETAILS = 'Service busy';

/**
 * The status of a call that got no database connection within the pool's bound
 * (shared/db.ts isConnectionWaitTimeout): UNAVAILABLE with `retry-after`, which the gateway
 * answers 503 with Retry-After. grpc-js's own UNAVAILABLE never carries that metadata, so the
 * two cannot be confused (gateway/src/grpc/status-map.ts).
 */
export function busyStatus(retryAfterSeconds: number): { code: grpc.status; details: string; metadata: grpc.Metadata } {
  const metadata = new grpc.Metadata();
  metadata.set(RETRY_AFTER_METADATA, String(retryAfterSeconds));
  return { code: grpc.status.UNAVAILABLE, details: BUSY_DETAILS, metadata };
}

/**
 * Writes `chunks` to a server-streaming call as `{ data }` messages, each pulled from its source
 * only once the previous one is on its way (write() returned true, or 'drain'), and ends the call.
 * A call the client cancelled stops pulling (false is answered then). The source's errors reject.
 */
export async function writeChunks(call: grpc.ServerWritableStream<unknown, { data: Buffer }>, chunks: AsyncIterable<Buffer>): Promise<boolean> {
  let cancelled = false;
  const onCancel = () => (cancelled = true);
  call.on('cancelled', onCancel);
  try {
    for await (const data of chunks) {
      if (cancelled) break;
      if (!call.write({ data })) {
        await new Promise<void>((resolve) => {
          const go = () => (call.off('drain', go), call.off('cancelled', go), resolve());
          call.on('drain', go);
          call.on('cancelled', go);
        });
      }
    }
    if (!cancelled) call.end();
    return !cancelled;
  } finally {
    call.off('cancelled', onCancel);
  }
}

export const PROTO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../contracts/protos');

const LOADER_OPTIONS: protoLoader.Options = Object.freeze({
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
});

function load(file: string): unknown {
  return grpc.loadPackageDefinition(protoLoader.loadSync(file, LOADER_OPTIONS));
}

// The one cast from the loader's untyped output to the generated types.
export function loadCampaignProto(): CampaignProto {
  return load('campaign/v1/campaign.proto') as unknown as CampaignProto;
}

export function loadConsoleProto(): ConsoleProto {
  return load('campaign/v1/console.proto') as unknown as ConsoleProto;
}

export function loadAudienceProto(): AudienceProto {
  return load('delivery/v1/audience.proto') as unknown as AudienceProto;
}

export function loadWebhooksProto(): WebhooksProto {
  return load('delivery/v1/webhooks.proto') as unknown as WebhooksProto;
}

export function loadAuditLogProto(): AuditLogProto {
  return load('delivery/v1/audit_log.proto') as unknown as AuditLogProto;
}

export function loadRunsProto(): RunsProto {
  return load('delivery/v1/runs.proto') as unknown as RunsProto;
}

export function loadConsoleDataProto(): ConsoleDataProto {
  return load('delivery/v1/console_data.proto') as unknown as ConsoleDataProto;
}

export function loadSiteAdminProto(): SiteAdminProto {
  return load('campaign/v1/site_admin.proto') as unknown as SiteAdminProto;
}

export function loadSiteRegistryProto(): SiteRegistryProto {
  return load('delivery/v1/site_registry.proto') as unknown as SiteRegistryProto;
}

/** Binds a gRPC server; port 0 picks a free port. Resolves to the bound port. */
export function bindServer(server: grpc.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
}

/** Stops taking calls, lets in-flight calls (an export's stream) finish for up to `graceMs`, then forces. */
export function shutdownServer(server: grpc.Server, graceMs = DRAIN_MS): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
