// The shape of one /v2 API endpoint: what the /v2 router (routes/api.ts) checks before it calls
// `handle`, in the order docs/api-decisions.md fixes: auth → plan → body size → JSON → backend.
// Its method and path are where the router registers it.
import type { IncomingHttpHeaders } from 'node:http';
import type { Permission, Principal } from '../auth/authenticator.js';
import type { CallContext } from '../grpc/clients.js';
import type { AuditKind } from './audit-trail.js';

export interface RouteInput {
  principal: Principal;
  /** Path parameters by name, percent-decoded. */
  params: Readonly<Record<string, string>>;
  /** The body as the JSON text of an object; '' for routes that take no body. */
  bodyJson: string;
  /** The query string as Express parsed it (a repeated name gives an array). */
  query: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  ctx: CallContext;
}

export interface ApiRoute {
  operation: string;
  /** For the audit log (audit-trail.ts); absent: by the method it is registered with. */
  audit?: AuditKind;
  permission: Permission;
  /** What a valid key whose plan lacks `permission` gets. */
  denied: { status: number; body: unknown };
  /** The 500 text of this endpoint (also when the key check itself fails). */
  genericMessage: string;
  /** 'none': the body is only size-checked; 'json': a JSON object is required; 'json-or-empty': absent means {}. */
  body: 'none' | 'json' | 'json-or-empty';
  /** The body size over which this route answers 413; default the gateway's BODY_LIMIT_BYTES. */
  bodyLimitBytes?: number;
  /** The status of its answer; default 200 (202: accepted, its work goes on: a notification). */
  answerStatus?: 200 | 202;
  handle(input: RouteInput): Promise<unknown>;
}

/**
 * An answer streamed as the backend makes it (an export). The /v2 router reads the first chunk
 * before it answers, so a refusal the backend makes at once is still a JSON error with its
 * status; after that, 200 and the chunks as they come, each written once the client has taken
 * the one before. A client gone, or a HEAD, cancels the backend call.
 */
export class StreamAnswer {
  constructor(
    readonly contentType: string,
    readonly filename: string,
    readonly chunks: AsyncIterable<Buffer>,
    readonly cancel: () => void,
  ) {}
}

/**
 * The StreamAnswer of a server-streaming backend call of `{ data }` chunks, in `format` (csv, or
 * NDJSON for anything else: a format the backend refuses never gets past the first chunk),
 * downloaded as `<basename>.csv` or `<basename>.ndjson`.
 */
export function exportAnswer(call: AsyncIterable<unknown> & { cancel(): void }, format: string, basename: string): StreamAnswer {
  const chunks = (async function* () {
    for await (const chunk of call as AsyncIterable<{ data: Buffer }>) yield chunk.data;
  })();
  const csv = format === 'csv';
  return new StreamAnswer(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8', `${basename}.${csv ? 'csv' : 'ndjson'}`, chunks, () => call.cancel());
}

/**
 * A query value for the backend to judge: absent is '', and a repeated name (an array) is sent
 * as a value its rule refuses, so the caller gets that parameter's own message.
 */
export function queryValue(value: unknown, refusedAs: string): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : refusedAs;
}
