// The /v2 API's Express router: every method and path of the API is registered below, each
// running the same chain of steps in the order docs/api-decisions.md fixes: key present → the
// client's key-guessing limit → the key → the key's rate limit → the plan → body size → JSON →
// the backend; then the answer of a known key within its limits goes into its site's audit log
// before it is sent (audit-trail.ts). A caller within its limits sees exactly the spec's answers;
// a path that exists with other methods answers 405 with Allow (http/routing.ts).
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { Logger } from '@webpush/shared/log.js';
import type { RateDecision } from '@webpush/shared/rate-limit.js';
import { sha256Hex, type Authenticator, type Principal } from '../auth/authenticator.js';
import type { Backends } from '../grpc/clients.js';
import { backendUnavailable, neverReachedBackend, toHttpError } from '../grpc/status-map.js';
import { createBodyReader, jsonObjectText } from '../http/body.js';
import type { ClientResolver } from '../http/client-address.js';
import { sendJson } from '../http/json.js';
import { requestIdOf } from '../http/request-id.js';
import { createRouter, type Method, type PathPattern } from '../http/routing.js';
import { HttpError, MESSAGES, tooManyRequests } from '../texts.js';
import { audienceEndpoints } from './audience.js';
import { auditKindOf, auditTarget, isRecorded, statusOfError, type AuditTrail } from './audit-trail.js';
import { campaignEndpoints } from './campaigns.js';
import { optInFunnelEndpoint } from './optin-funnel.js';
import { notificationEndpoints } from './notifications.js';
import { StreamAnswer, type ApiRoute } from './route.js';
import { firstChunkRead, ReadStream, sendStream } from './stream.js';
import { templateEndpoints } from './templates.js';
import { automationEndpoints } from './automations.js';
import { feedEndpoints } from './feeds.js';
import { webhookEndpoints } from './webhooks.js';
import { peopleEndpoints } from './people.js';

export interface ApiDeps {
  backends: Pick<Backends, 'campaigns' | 'templates' | 'automations' | 'feeds' | 'audience' | 'webhooks'>;
  authenticator: Authenticator;
  bodyLimitBytes: number;
  logger: Logger;
  /** Abuse limits (packages/shared/src/rate-limit.ts); absent = none. */
  limits?: ApiLimits;
  /** The sites' audit logs (audit-trail.ts); absent = nothing recorded. */
  audit?: AuditTrail;
}

export interface ApiLimits {
  clientOf: ClientResolver;
  /** Calls per key, keyed by the key's SHA-256. */
  perKey: { take(keyHash: string): RateDecision };
  /** Distinct unknown keys per client address. */
  keyFailures: { check(client: string): RateDecision; fail(client: string, keyId: string): void };
}

export function v2Router(deps: ApiDeps): Router {
  const campaigns = campaignEndpoints(deps.backends.campaigns);
  const notifications = notificationEndpoints(deps.backends.campaigns);
  const audience = audienceEndpoints(deps.backends.audience);
  const templates = templateEndpoints(deps.backends.templates);
  const automations = automationEndpoints(deps.backends.automations);
  const feeds = feedEndpoints(deps.backends.feeds);
  const webhooks = webhookEndpoints(deps.backends.webhooks);
  const people = peopleEndpoints(deps.backends.audience);
  const v2 = createRouter();
  const steps = v2Steps(deps);
  const add = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, route: ApiRoute) => v2.add(method, path, (pattern) => steps(route, pattern, method));

  // Tried in this order: /v2/campaign/create is a create, not a get of the campaign "create".
  add('POST', '/v2/campaign/create', campaigns.create);
  add('POST', '/v2/campaign/plan-preview', campaigns.planPreview);
  add('POST', '/v2/campaigns', campaigns.list);
  add('POST', '/v2/campaigns/export', campaigns.export);
  add('GET', '/v2/campaign/{campaignId}', campaigns.get);
  add('DELETE', '/v2/campaign/{campaignId}', campaigns.delete);
  add('POST', '/v2/campaign/{campaignId}/winner', campaigns.pickWinner);
  add('POST', '/v2/campaign/{campaignId}/update', campaigns.update);
  add('POST', '/v2/campaign/{campaignId}/recall', campaigns.recall);
  add('GET', '/v2/campaign', campaigns.getWithoutId);
  add('DELETE', '/v2/campaign', campaigns.deleteWithoutId);

  add('POST', '/v2/notifications', notifications.create);
  add('GET', '/v2/notifications', notifications.list);
  add('GET', '/v2/notifications/{notificationId}', notifications.get);

  add('GET', '/v2/topics', audience.topics);
  add('GET', '/v2/countries', audience.countries);
  add('GET', '/v2/subscribers/export', audience.exportSubscribers);
  add('POST', '/v2/subscribers/import', audience.importSubscribers);
  add('GET', '/v2/optin/funnel', optInFunnelEndpoint(deps.backends.audience));

  add('GET', '/v2/users/{externalId}', people.get);
  add('PATCH', '/v2/users/{externalId}', people.update);
  add('DELETE', '/v2/users/{externalId}', people.delete);
  add('GET', '/v2/users/{externalId}/export', people.export);

  add('GET', '/v2/templates', templates.list);
  add('POST', '/v2/templates', templates.create);
  add('GET', '/v2/templates/{templateId}', templates.get);
  add('PATCH', '/v2/templates/{templateId}', templates.update);
  add('DELETE', '/v2/templates/{templateId}', templates.delete);
  add('POST', '/v2/templates/{templateId}/render', templates.render);

  add('GET', '/v2/automations', automations.list);
  add('POST', '/v2/automations', automations.create);
  add('GET', '/v2/automations/{automationId}', automations.get);
  add('PATCH', '/v2/automations/{automationId}', automations.update);
  add('DELETE', '/v2/automations/{automationId}', automations.delete);
  add('POST', '/v2/events', automations.event);
  add('GET', '/v2/feeds', feeds.list);
  add('POST', '/v2/feeds', feeds.create);
  add('GET', '/v2/feeds/{feedId}', feeds.get);
  add('PATCH', '/v2/feeds/{feedId}', feeds.update);
  add('DELETE', '/v2/feeds/{feedId}', feeds.delete);

  add('GET', '/v2/webhooks', webhooks.list);
  add('POST', '/v2/webhooks', webhooks.create);
  add('GET', '/v2/webhooks/{webhookId}', webhooks.get);
  add('PATCH', '/v2/webhooks/{webhookId}', webhooks.update);
  add('DELETE', '/v2/webhooks/{webhookId}', webhooks.delete);
  add('POST', '/v2/webhooks/{webhookId}/rotate-secret', webhooks.rotateSecret);
  add('GET', '/v2/webhooks/{webhookId}/deliveries', webhooks.deliveries);
  add('POST', '/v2/webhooks/{webhookId}/deliveries/{eventId}/redeliver', webhooks.redeliver);
  add('POST', '/v2/webhooks/{webhookId}/ping', webhooks.ping);
  return v2.done();
}

/** What the steps of one call hand on to the next (res.locals). */
interface CallState {
  client: string;
  keyHash: string;
  principal: Principal;
  bodyJson: string;
  /** The key is known and within its limits: the call's answer goes into the site's audit log (when the route's does). */
  recordable: boolean;
}
const stateOf = (res: Response) => res.locals as CallState;

/** The chain of one endpoint: each step answers (a refusal) or hands on with next(). */
function v2Steps({ authenticator, bodyLimitBytes, logger, limits, audit }: ApiDeps) {
  const readBody = createBodyReader(bodyLimitBytes);

  return (route: ApiRoute, pattern: PathPattern, method: Method): (RequestHandler | ErrorRequestHandler)[] => {
    // A route with a limit of its own (an import) gets a reader of its own, made once.
    const read = route.bodyLimitBytes === undefined ? readBody : createBodyReader(route.bodyLimitBytes);
    const auditKind = auditKindOf(method, route.audit);

    /** The answer about to be sent, into the site's audit log when the route is recorded (a file always is), by the key. */
    async function recorded(req: Request, res: Response, status: number, answer: unknown): Promise<void> {
      const state = stateOf(res);
      if (!audit || !state.recordable || !isRecorded(auditKind, answer)) return;
      const key = state.principal.key;
      await audit.record(
        {
          siteId: state.principal.siteId,
          actor: { kind: 'key', id: key?.id ?? '', prefix: key?.prefix ?? '', label: key?.label ?? '' },
          action: route.operation,
          target: auditTarget(pattern.params(req.path), answer instanceof ReadStream ? undefined : answer),
          status,
          clientAddress: state.client,
        },
        { requestId: requestIdOf(res) },
      );
    }

    function requireKey(req: Request, _res: Response, next: NextFunction) {
      const rawKey = req.headers.authorization;
      if (rawKey === undefined || rawKey === '') throw new HttpError(403, MESSAGES.notAuthorized);
      next();
    }

    // A client that has sent too many unknown keys is refused before its key is even looked up:
    // guessing costs no backend call and tells nothing, not even whether a guess was right.
    function refuseKeyGuessing(req: Request, res: Response, next: NextFunction) {
      const client = limits?.clientOf(req).address ?? '';
      stateOf(res).client = client;
      const guessing = limits?.keyFailures.check(client);
      if (guessing && !guessing.allowed) throw tooManyRequests(guessing.retryAfterSeconds);
      next();
    }

    async function authenticate(req: Request, res: Response, next: NextFunction) {
      const state = stateOf(res);
      state.keyHash = sha256Hex(req.headers.authorization!);
      let principal;
      try {
        principal = await authenticator.authenticate(state.keyHash, { requestId: requestIdOf(res) });
      } catch (err) {
        logger.error('key check failed', { requestId: requestIdOf(res), operation: route.operation, err: err instanceof Error ? err : undefined });
        // A key check that never reached the campaign service is as safe to retry as any call.
        throw neverReachedBackend(err) ? backendUnavailable() : new HttpError(500, route.genericMessage);
      }
      if (!principal) {
        limits?.keyFailures.fail(state.client, state.keyHash.slice(0, 32));
        throw new HttpError(403, MESSAGES.notAuthorized);
      }
      state.principal = principal;
      next();
    }

    function limitKey(_req: Request, res: Response, next: NextFunction) {
      const quota = limits?.perKey.take(stateOf(res).keyHash);
      if (quota && !quota.allowed) throw tooManyRequests(quota.retryAfterSeconds);
      next();
    }

    async function checkPlan(req: Request, res: Response, next: NextFunction) {
      stateOf(res).recordable = true;
      if (!stateOf(res).principal.permissions[route.permission]) {
        await recorded(req, res, route.denied.status, undefined);
        return sendJson(res, route.denied.status, route.denied.body);
      }
      next();
    }

    async function readJsonBody(req: Request, res: Response, next: NextFunction) {
      const body = await read(req, res);
      stateOf(res).bodyJson = route.body === 'none' ? '' : jsonObjectText(body, route.body === 'json-or-empty' ? '{}' : undefined);
      next();
    }

    async function callBackend(req: Request, res: Response) {
      const { principal, bodyJson } = stateOf(res);
      const ctx = { requestId: requestIdOf(res) };
      let answer;
      try {
        answer = await route.handle({ principal, params: pattern.params(req.path), bodyJson, query: req.query as Record<string, unknown>, headers: req.headers, ctx });
        if (answer instanceof StreamAnswer) answer = await firstChunkRead(answer);
      } catch (err) {
        if (err instanceof HttpError) throw err;
        const mapped = toHttpError(err, route.genericMessage);
        if (mapped.status >= 500) logger.error('backend call failed', { requestId: ctx.requestId, operation: route.operation, err: err instanceof Error ? err : undefined });
        throw mapped;
      }
      const status = route.answerStatus ?? 200;
      await recorded(req, res, status, answer);
      if (answer instanceof ReadStream) return sendStream(req, res, answer, logger);
      sendJson(res, status, answer);
    }

    /** A refusal of a step after the plan's, or of the backend, is recorded with its status before the router answers it. */
    async function recordRefusal(err: unknown, req: Request, res: Response, next: NextFunction) {
      await recorded(req, res, statusOfError(err), undefined);
      next(err);
    }

    return [requireKey, refuseKeyGuessing, authenticate, limitKey, checkPlan, readJsonBody, callBackend, recordRefusal];
  };
}
