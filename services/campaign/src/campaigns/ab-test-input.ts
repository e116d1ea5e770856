// Validation of a create's `abTest` (an addition: docs/api-decisions.md, "A/B tests"; the rules
// in packages/contracts/src/ab-test.ts): 2 to 5 variants, each a set of changes to the campaign's
// own content checked by exactly the rules of the create's fields (content-fields.ts), their
// messages prefixed with the variant; the test's share, winner metric and window. The result
// is normalised (each variant's fields and the test's in a fixed order) so equal tests are
// stored and compared equal.
import { MAX_VARIANTS, MAX_WINDOW_MINUTES, MIN_VARIANTS, VARIANT_FIELDS, variantContent, WINNER_METRICS, type AbTest, type VariantContent, type WinnerMetric } from '@webpush/contracts/ab-test.js';
import { fitsOnePush, type CampaignContent } from '@webpush/contracts/campaign-content.js';
import { echoValue } from '@webpush/shared/text.js';
import { CONTENT_FIELD_RULES } from './content-fields.js';
import { fill, MESSAGES } from '../base/texts.js';

const AB_TEST_FIELDS = ['variants', 'testPercent', 'winnerMetric', 'windowMinutes'] as const;
/** An unknown field's name as a message echoes it (the list's echo rule: control characters escaped, cut short). */
const ECHOED_NAME_CHARS = 40;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const wholeIn = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** The first own key of `o` not in `known` (one message per object, however many there are). */
function unknownKey(o: Record<string, unknown>, known: readonly string[]): string | undefined {
  return Object.keys(o).find((k) => !known.includes(k));
}

/** One variant's changes, normalised; its messages, prefixed, to `errors`. Null when one is wrong. */
function variantField(raw: Record<string, unknown>, index: number, errors: string[]): VariantContent | null {
  const before = errors.length;
  const unknown = unknownKey(raw, VARIANT_FIELDS);
  if (unknown !== undefined) errors.push(fill(MESSAGES.abTestVariantUnknownField, { index: String(index), name: echoValue(unknown, ECHOED_NAME_CHARS) }));
  const variant: Record<string, unknown> = {};
  for (const field of VARIANT_FIELDS) {
    // Own properties only; a field given as null is given (the create's rule for null applies).
    if (!Object.hasOwn(raw, field)) continue;
    const own: string[] = [];
    const value = CONTENT_FIELD_RULES[field](raw[field], own);
    for (const message of own) errors.push(fill(MESSAGES.abTestVariantMessage, { index: String(index), message }));
    variant[field] = value;
  }
  return errors.length > before ? null : (variant as VariantContent);
}

/** The normalised A/B test, or null for none (absent or null); each wrong part's message goes to `errors`. */
export function abTestField(raw: unknown, errors: string[]): AbTest | null {
  if (raw === undefined || raw === null) return null;
  if (!isObject(raw)) {
    errors.push(MESSAGES.abTestObject);
    return null;
  }
  const before = errors.length;
  const unknown = unknownKey(raw, AB_TEST_FIELDS);
  if (unknown !== undefined) errors.push(fill(MESSAGES.abTestUnknownField, { name: echoValue(unknown, ECHOED_NAME_CHARS) }));

  const variants: VariantContent[] = [];
  const list = Object.hasOwn(raw, 'variants') ? raw.variants : undefined;
  if (!Array.isArray(list) || list.length < MIN_VARIANTS || list.length > MAX_VARIANTS || !list.every(isObject)) {
    errors.push(MESSAGES.abTestVariants);
  } else {
    list.forEach((v, i) => {
      const variant = variantField(v, i, errors);
      if (variant) variants.push(variant);
    });
  }
  const testPercent = Object.hasOwn(raw, 'testPercent') ? raw.testPercent : undefined;
  if (!wholeIn(testPercent, 1, 100)) errors.push(MESSAGES.abTestTestPercent);
  const winnerMetric = Object.hasOwn(raw, 'winnerMetric') ? raw.winnerMetric : undefined;
  if (!(WINNER_METRICS as readonly unknown[]).includes(winnerMetric)) errors.push(MESSAGES.abTestWinnerMetric);
  const windowMinutes = Object.hasOwn(raw, 'windowMinutes') ? raw.windowMinutes : undefined;
  if (!wholeIn(windowMinutes, 1, MAX_WINDOW_MINUTES)) errors.push(MESSAGES.abTestWindowMinutes);
  if (errors.length > before) return null;
  return { variants, testPercent: testPercent as number, winnerMetric: winnerMetric as WinnerMetric, windowMinutes: windowMinutes as number };
}

/** `Notification is too large …`, prefixed, for each variant whose notification would not fit one push. */
export function variantsThatDoNotFit(content: CampaignContent, abTest: AbTest): string[] {
  return abTest.variants.flatMap((v, i) =>
    fitsOnePush(variantContent(content, v)) ? [] : [fill(MESSAGES.abTestVariantMessage, { index: String(i), message: MESSAGES.notificationTooLarge })],
  );
}
