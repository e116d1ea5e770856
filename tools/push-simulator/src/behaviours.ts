import type { Behaviour } from './types.js';

export class BehaviourError extends Error {}

export function validateBehaviour(b: Behaviour): Behaviour {
  if (b.status !== undefined && !(Number.isInteger(b.status) && b.status >= 400 && b.status <= 599)) {
    throw new BehaviourError('status must be an error status between 400 and 599');
  }
  if (b.retryAfter !== undefined && typeof b.retryAfter !== 'string') throw new BehaviourError('retryAfter must be a string');
  for (const name of ['resetAfterAccept', 'resetBeforeAccept'] as const) {
    const p = b[name];
    if (p !== undefined && !(typeof p === 'number' && p >= 0 && p <= 1)) throw new BehaviourError(`${name} must be a probability`);
  }
  if (b.latencyMs !== undefined && !(Number.isFinite(b.latencyMs) && b.latencyMs >= 0 && b.latencyMs <= 600_000)) {
    throw new BehaviourError('latencyMs must be between 0 and 600000');
  }
  if (b.times !== undefined && !(Number.isInteger(b.times) && b.times > 0)) throw new BehaviourError('times must be a positive integer');
  if (b.forSubscription !== undefined && typeof b.forSubscription !== 'string') throw new BehaviourError('forSubscription must be a string');
  return { ...b };
}

/** Rules are tried newest first; a subscription-specific rule wins over a general one. */
export class Behaviours {
  private rules: Behaviour[] = [];

  add(b: Behaviour): void {
    this.rules.unshift(validateBehaviour(b));
  }

  clear(): void {
    this.rules = [];
  }

  /** The rule for this push, counted as used. */
  take(subscriptionId: string): Behaviour | undefined {
    const index = this.findIndex(subscriptionId);
    if (index < 0) return undefined;
    const rule = this.rules[index];
    if (rule.times !== undefined) {
      rule.times -= 1;
      if (rule.times <= 0) this.rules.splice(index, 1);
    }
    return rule;
  }

  private findIndex(subscriptionId: string): number {
    const specific = this.rules.findIndex((r) => r.forSubscription === subscriptionId);
    return specific >= 0 ? specific : this.rules.findIndex((r) => r.forSubscription === undefined);
  }
}
