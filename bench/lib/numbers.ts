// Numbers the bench's entry points share: integer flags (one rule, one message) and medians.

/** An integer flag of at least `min`, or `fallback` when absent; anything else stops the run with the flag's name. */
export function int(v: string | undefined, name: string, fallback: number, min = 1): number {
  if (v === undefined) return fallback;
  const x = Number(v);
  if (!Number.isInteger(x) || x < min) throw new Error(`--${name} must be ${min === 1 ? 'a positive integer' : `an integer ≥ ${min}`}`);
  return x;
}

/** The middle value (the upper of the two middle ones when there is an even number). */
export function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}
