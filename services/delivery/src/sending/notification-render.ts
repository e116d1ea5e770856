// A notification made from a template, rendered per person (docs/api-decisions.md,
// "Notifications", "From a template"): once, when its targets are resolved, each target row's
// content is the template's texts rendered with its person's tags under the call's variables
// (the call's win) — a person named by `externalIds` by their own tags, a subscription named by
// those of the person it is linked to, if any. A row whose rendering fails is `failed` with the
// reason and never sent; the rest are sent as usual, each with its own content.
import { fitsOnePush, type CampaignContent, type NotificationOptions } from '@webpush/contracts/campaign-content.js';
import type { NotificationTemplateJob } from '@webpush/contracts/messages.js';
import { renderTemplateContent } from '@webpush/contracts/template.js';
import type { TagTexts } from '../people/index.js';

export const RENDER_FAILURES = Object.freeze({
  missing: (names: string[]) => `the template's variable${names.length > 1 ? 's' : ''} ${names.join(', ')} had no value for this person (no tag, no call variable, no default)`,
  tooLarge: 'the notification rendered for this person is too large for one push (over 4096 bytes encrypted)',
});

/**
 * The content of one target: `frozen` (the job's content, the create's rendering whose fields
 * the create's rules accepted) with every text the template holds rendered with
 * `{...tags, ...variables}`; or the reason it cannot be sent.
 */
export function renderForTarget(frozen: CampaignContent, template: NotificationTemplateJob, tags: TagTexts | undefined): { content: CampaignContent } | { reason: string } {
  // No prototype: a tag or variable named __proto__ is a value like any other.
  const values: Record<string, string | number> = Object.assign(Object.create(null), tags, template.variables);
  const { content: r, missing } = renderTemplateContent(template.content, values);
  if (missing.length > 0) return { reason: RENDER_FAILURES.missing(missing) };
  const text = (field: string, current: string) => (typeof r[field] === 'string' ? (r[field] as string) : current);
  const url = (field: string, current: string | null) => (typeof r[field] === 'string' && r[field] !== '' ? (r[field] as string) : current);
  const options: NotificationOptions | null | undefined = frozen.options && {
    ...frozen.options,
    badge: url('badge', frozen.options.badge),
    actions: Array.isArray(r.actions) ? frozen.options.actions.map((a, i) => ({ ...a, ...(r.actions as { title: string; link: string }[])[i] })) : frozen.options.actions,
  };
  const content: CampaignContent = {
    ...frozen,
    title: text('title', frozen.title),
    body: text('body', frozen.body),
    link: text('link', frozen.link),
    callToAction: text('callToAction', frozen.callToAction),
    utmSource: text('utmSource', frozen.utmSource),
    utmMedium: text('utmMedium', frozen.utmMedium),
    utmCampaign: text('utmCampaign', frozen.utmCampaign),
    icon: url('icon', frozen.icon),
    image: url('image', frozen.image),
    ...(options === undefined ? {} : { options }),
  };
  return fitsOnePush(content) ? { content } : { reason: RENDER_FAILURES.tooLarge };
}
