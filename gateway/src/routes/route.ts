// The shape of one /v2 API route. The dispatcher (routes/api.ts) runs the same steps for all of
// them, in the order docs/api-decisions.md fixes: auth → plan → body size → JSON → backend.
import type { IncomingHttpHeaders } from 'node:http';
import type { Permission, Principal } from '../auth/authenticator.js';
import type { CallContext } from '../grpc/clients.js';

export type Method = 'GET' | 'POST' | 'DELETE';

export interface RouteInput {
  principal: Principal;
  /** Path parameters, percent-decoded. */
  params: string[];
  /** The body as the JSON text of an object; '' for routes that take no body. */
  bodyJson: string;
  headers: IncomingHttpHeaders;
  ctx: CallContext;
}

export interface ApiRoute {
  method: Method;
  /** Matched against the raw path (before percent-decoding); groups are the parameters. */
  pattern: RegExp;
  operation: string;
  permission: Permission;
  /** What a valid key whose plan lacks `permission` gets. */
  denied: { status: number; body: unknown };
  /** The 500 text of this endpoint (also when the key check itself fails). */
  genericMessage: string;
  /** 'none': the body is only size-checked; 'json': a JSON object is required; 'json-or-empty': absent means {}. */
  body: 'none' | 'json' | 'json-or-empty';
  /** The body size over which this route answers 413; default the gateway's BODY_LIMIT_BYTES. */
  bodyLimitBytes?: number;
  handle(input: RouteInput): Promise<unknown>;
}
