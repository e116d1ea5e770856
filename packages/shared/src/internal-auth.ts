// Services authenticate each other (docs/security.md). Each calling service has a secret token
// of its own; it sends it with every internal gRPC call (metadata) and HTTP request (header),
// and each callee keeps the tokens of exactly the callers it serves. A per-caller token (not one
// shared secret) lets a callee tell the gateway from the campaign service: only the gateway may
// pass on a visitor's address and country.
//
// We chose tokens over mTLS: they need no certificate authority in `npm start`, compose or
// Kubernetes, rotate like any other Secret, and the NetworkPolicies already keep other pods off
// the wire. The token never travels to the internet (the gateway strips the header from
// clients).
//
// Operators (the operator CLI) are a caller too: OPERATOR_INTERNAL_TOKEN opens the services'
// admin APIs (campaign.v1.SiteAdmin, delivery.v1.SiteRegistry's Set calls) and nothing else. A
// service started without it refuses every operator call.
import { createHash, timingSafeEqual } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { ConfigError } from './config.js';

export type Caller = 'gateway' | 'campaign' | 'operator';

/** The variable that holds each caller's token, in the caller's and its callees' environments. */
export const TOKEN_VARIABLE = Object.freeze({
  gateway: 'GATEWAY_INTERNAL_TOKEN',
  campaign: 'CAMPAIGN_INTERNAL_TOKEN',
  operator: 'OPERATOR_INTERNAL_TOKEN',
} as const satisfies Record<Caller, string>);

/** gRPC metadata key and HTTP header name of the token (lowercase, as both carry it). */
export const INTERNAL_AUTH_HEADER = 'x-internal-auth';

export const UNAUTHENTICATED_MESSAGE = 'Internal authentication required';

const MIN_TOKEN_BYTES = 32;

/** A caller's token from the environment (`name`: a TOKEN_VARIABLE): base64 or base64url of at least 32 random bytes. */
export function internalToken(env: Record<string, string | undefined>, name: (typeof TOKEN_VARIABLE)[Caller]): string {
  const raw = env[name]?.trim();
  if (!raw) throw new ConfigError(`${name} is required but not set (base64 of at least ${MIN_TOKEN_BYTES} random bytes, e.g. openssl rand -base64 32)`);
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw) || Buffer.from(raw, 'base64').length < MIN_TOKEN_BYTES) {
    throw new ConfigError(`${name} must be base64 of at least ${MIN_TOKEN_BYTES} bytes`);
  }
  return raw;
}

/** The operators' token when set (checked like internalToken), else undefined: their admin APIs are then closed. */
export function operatorToken(env: Record<string, string | undefined>, name: (typeof TOKEN_VARIABLE)['operator']): string | undefined {
  return env[name]?.trim() ? internalToken(env, name) : undefined;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export interface InternalAuth {
  /** The caller whose token this is, or null (absent, malformed or unknown token). */
  callerOf(presented: unknown): Caller | null;
}

/** Recognises the tokens of the callers this service serves (compared in constant time). */
export function createInternalAuth(tokens: Partial<Record<Caller, string>>): InternalAuth {
  const known = (Object.entries(tokens) as [Caller, string | undefined][])
    .filter((entry): entry is [Caller, string] => typeof entry[1] === 'string' && entry[1] !== '')
    .map(([caller, token]) => ({ caller, digest: digest(token) }));
  return {
    callerOf(presented) {
      if (typeof presented !== 'string' || presented === '' || presented.length > 512) return null;
      const d = digest(presented);
      let found: Caller | null = null;
      // Every known token is compared, so the time taken does not tell which one came close.
      for (const k of known) if (timingSafeEqual(d, k.digest)) found = k.caller;
      return found;
    },
  };
}

/**
 * Client options that add the caller's token to every call of a gRPC client (pass them as the
 * client's third constructor argument, merged with any other channel options).
 */
export function withInternalToken(token: string, options: grpc.ChannelOptions = {}): grpc.ClientOptions {
  const interceptor: grpc.Interceptor = (callOptions, nextCall) =>
    new grpc.InterceptingCall(nextCall(callOptions), {
      start(metadata, listener, next) {
        metadata.set(INTERNAL_AUTH_HEADER, token);
        next(metadata, listener);
      },
    });
  return { ...options, interceptors: [interceptor] };
}

/**
 * A server interceptor that refuses (PERMISSION_DENIED) every call whose token is not one of the
 * callers allowed for its method. `allowed` maps a full method path
 * (`/package.Service/Method`) or a service prefix (`/package.Service/`) to its callers; methods
 * not named (the standard health service, which Kubernetes probes call without credentials)
 * are open.
 */
export function internalAuthInterceptor(auth: InternalAuth, allowed: Readonly<Record<string, readonly Caller[]>>): grpc.ServerInterceptor {
  const callersFor = (path: string): readonly Caller[] | undefined => allowed[path] ?? allowed[path.slice(0, path.lastIndexOf('/') + 1)];
  return (method, call) => {
    const callers = callersFor(method.path);
    if (!callers) return new grpc.ServerInterceptingCall(call);
    const listener = new grpc.ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        const caller = auth.callerOf(metadata.get(INTERNAL_AUTH_HEADER)[0]);
        if (caller && callers.includes(caller)) return next(metadata);
        // Not UNAUTHENTICATED: the gateway reads that as "unknown API key"; this is a deployment fault.
        call.sendStatus({ code: grpc.status.PERMISSION_DENIED, details: UNAUTHENTICATED_MESSAGE });
      })
      .build();
    return new grpc.ServerInterceptingCall(call, new grpc.ResponderBuilder().withStart((next) => next(listener)).build());
  };
}
