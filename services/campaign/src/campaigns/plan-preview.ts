// PlanPreview (POST /v2/campaign/plan-preview, docs/api-decisions.md "Best time"): how a best-time
// campaign would be spread over the hours of its window before it is sent — the body checked by
// the create's rules (create-input.ts validatePlanPreviewInput), the distribution computed by the
// delivery service, which owns the subscribers and their hour weights (Audience/PlanBestTime).
import type { BestTime } from '@webpush/contracts/best-time.js';
import type { Segment } from '@webpush/contracts/segment.js';
import type { PlanPreviewResponse } from '@webpush/contracts/generated/campaign/v1/PlanPreviewResponse.js';
import { formatUtcDate } from '../base/dates.js';
import { parseObjectBody } from '../base/request-body.js';
import { validatePlanPreviewInput } from './create-input.js';

/** The delivery service's answer (audience-client.ts). */
export interface BestTimePlan {
  users: number;
  holdoutUsers: number;
  slots: { sendAt: string; hour: number; users: number }[];
  sampled: boolean;
  sampleSize: number;
}

export interface BestTimePlanner {
  planBestTime(siteId: string, topics: readonly string[], countries: readonly string[], segment: Segment | null, bestTime: BestTime, start: Date): Promise<BestTimePlan>;
}

export function planPreviewUseCase(deps: { planner: BestTimePlanner; now?: () => Date }) {
  return async function planPreview(siteId: string, bodyJson: string): Promise<PlanPreviewResponse> {
    const input = validatePlanPreviewInput(parseObjectBody(bodyJson, false), deps.now?.() ?? new Date());
    const plan = await deps.planner.planBestTime(siteId, input.topics, input.countries, input.segment, input.bestTime, input.start);
    return {
      totalUsers: plan.users,
      withinHours: input.bestTime.withinHours,
      holdoutPercent: input.bestTime.holdoutPercent,
      start: formatUtcDate(input.start),
      holdoutUsers: plan.holdoutUsers,
      hours: plan.slots.map((s) => ({ sendAt: formatUtcDate(new Date(s.sendAt)), hour: s.hour, users: s.users })),
      sampled: plan.sampled,
      sampleSize: plan.sampleSize,
    };
  };
}
