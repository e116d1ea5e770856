// GetNotification and ListNotifications (GET /v2/notifications/{id} and GET /v2/notifications):
// the notification as stored here (site's only: another site's id is not found), and for one
// notification its run as the delivery service knows it — status, counts by outcome, and a page
// of per-target results (a subscription's, or a person's) in the order the request named them. Until the delivery service
// has taken the job the notification is `queued`, every target pending. Its impressions and clicks
// are the ones stored here (stats/), in the list too.
import type { NotificationBestTime } from '@webpush/contracts/best-time.js';
import type { Pool } from '@webpush/shared/db.js';
import type { CampaignContent } from '@webpush/contracts/campaign-content.js';
import { formatUtcDate } from '../base/dates.js';
import { NotFoundError, ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { MESSAGES } from '../base/texts.js';
import { findNotification, listNotifications, type NotificationRow } from './notification-store.js';

export const NOTIFICATION_OUTCOMES = ['sent', 'noSubscription', 'capped', 'failed', 'pending'] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];

export interface NotificationCounts {
  sent: number;
  noSubscription: number;
  capped: number;
  failed: number;
  pending: number;
}

/** The delivery service's answer for one notification (its Runs API). `found` false: its job not taken yet. */
export interface NotificationRun {
  found: boolean;
  state: string;
  reason: string;
  counts: NotificationCounts;
  /** A target is a subscription (`subscriptionId`) or a person (`externalId`); the other is ''. */
  results: { position: number; subscriptionId: string; externalId: string; outcome: NotificationOutcome; reason: string }[];
  hasMore: boolean;
}

export interface NotificationResultsReader {
  notificationResults(siteId: string, notificationId: string, after: number, limit: number): Promise<NotificationRun>;
}

export interface NotificationAnswer {
  id: string;
  createdAt: string;
  transactional: boolean;
  targets: number;
  status: string;
  reason: string;
  contentJson: string;
  counts: NotificationCounts | null;
  impressions: number;
  clicks: number;
  results: { subscriptionId: string; externalId: string; outcome: string; reason: string }[];
  nextCursor: string;
  /** At each target's best hour of a window (hours); null: at once. */
  sendTime: NotificationBestTime | null;
  respectQuietHours: boolean;
}

export const DEFAULT_RESULTS_LIMIT = 100;
const MAX_LIMIT = 1000;
const POSITION = /^(0|[1-9]\d{0,4})$/;
const LIST_CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_(.{36})$/;

/** Where a list page stopped, from its cursor (`<created_at microseconds>_<id>`), or null for a cursor this service never made. */
function listPosition(cursor: string): { sortKey: string; id: string } | null {
  const m = LIST_CURSOR.exec(cursor);
  if (!m || !isUuid(m[2])) return null;
  const at = Date.parse(m[1]);
  // A real moment only (2026-02-30 is not one): Postgres would refuse it.
  if (Number.isNaN(at) || new Date(at).toISOString().slice(0, 19) !== m[1].slice(0, 19)) return null;
  return { sortKey: m[1], id: m[2].toLowerCase() };
}

function limitOf(value: string): number {
  if (value === '') return DEFAULT_RESULTS_LIMIT;
  const n = /^[1-9]\d{0,3}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= MAX_LIMIT)) throw new ValidationError([MESSAGES.notificationLimit]);
  return n;
}

/** The content as the API shows it: the request's fields, the notification options among them (when any were given), ttl and urgency. */
function contentJson(row: NotificationRow): string {
  const { options, ...fields }: CampaignContent = row.content;
  return JSON.stringify({ ...fields, ...(options ?? {}), ttl: row.ttl, urgency: row.urgency });
}

/** Whom it names, in the request's order: its subscriptions or its people. */
const targetsOf = (row: NotificationRow): string[] => (row.externalIds.length > 0 ? row.externalIds : row.subscriptionIds);

function answerOf(row: NotificationRow): NotificationAnswer {
  return {
    id: row.id,
    createdAt: formatUtcDate(row.createdAt),
    transactional: row.transactional,
    targets: targetsOf(row).length,
    status: '',
    reason: '',
    contentJson: contentJson(row),
    counts: null,
    impressions: row.impressions,
    clicks: row.clicks,
    results: [],
    nextCursor: '',
    sendTime: row.sendTime,
    respectQuietHours: row.respectQuietHours,
  };
}

export function notificationByIdUseCases(deps: { pool: Pool; runs: NotificationResultsReader }) {
  return {
    async getNotification(siteId: string, notificationId: string, limitText: string, cursor: string): Promise<NotificationAnswer> {
      if (!isUuid(siteId) || !isUuid(notificationId)) throw new NotFoundError(MESSAGES.notificationNotFound);
      const limit = limitOf(limitText);
      if (cursor !== '' && !POSITION.test(cursor)) throw new ValidationError([MESSAGES.invalidCursor]);
      const after = cursor === '' ? 0 : Number(cursor);
      const row = await findNotification(deps.pool, siteId, notificationId.toLowerCase());
      if (!row) throw new NotFoundError(MESSAGES.notificationNotFound);
      const answer = answerOf(row);
      const run = await deps.runs.notificationResults(siteId, row.id, after, limit);
      if (!run.found) {
        // Not taken yet: every target is pending; the page lists them as named.
        const targets = targetsOf(row);
        const page = targets.slice(after, after + limit);
        const hasMore = after + page.length < targets.length;
        return {
          ...answer,
          status: 'queued',
          counts: { sent: 0, noSubscription: 0, capped: 0, failed: 0, pending: targets.length },
          results: page.map((id) => ({ ...(row.externalIds.length > 0 ? { subscriptionId: '', externalId: id } : { subscriptionId: id, externalId: '' }), outcome: 'pending', reason: '' })),
          nextCursor: hasMore ? String(after + page.length) : '',
        };
      }
      const last = run.results.at(-1);
      return {
        ...answer,
        // The run's states: `expanding` is still the sending of it.
        status: run.state === 'completed' || run.state === 'failed' ? run.state : 'sending',
        reason: run.state === 'failed' ? run.reason : '',
        counts: run.counts,
        results: run.results.map(({ subscriptionId, externalId, outcome, reason }) => ({ subscriptionId, externalId, outcome, reason })),
        nextCursor: run.hasMore && last ? String(last.position) : '',
      };
    },

    async listNotifications(siteId: string, limitText: string, cursor: string): Promise<{ items: NotificationAnswer[]; nextCursor: string }> {
      if (!isUuid(siteId)) throw new NotFoundError(MESSAGES.notificationNotFound);
      const limit = limitOf(limitText);
      const after = cursor === '' ? null : listPosition(cursor);
      if (cursor !== '' && !after) throw new ValidationError([MESSAGES.invalidCursor]);
      const rows = await listNotifications(deps.pool, siteId, limit + 1, after);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return { items: page.map(answerOf), nextCursor: rows.length > limit && last ? `${last.sortKey}_${last.id}` : '' };
    },
  };
}
