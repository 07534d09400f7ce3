// Every random choice of the crash, concurrency and tamper targets comes from fast-check samples
// drawn with the run's seed, so `--seed N` replays the same plan (kill timing itself still depends
// on the machine: a failure string says what was actually hit, not only what was planned).
import fc from "fast-check";

/** `count` values of `arbitrary`, the same for the same seed and salt. */
export function seededSamples<T>(arbitrary: fc.Arbitrary<T>, seed: number, salt: number, count: number): T[] {
  if (count <= 0) return [];
  // A distinct salt per use keeps two targets (or two lanes) from drawing the same stream.
  return fc.sample(arbitrary, { seed: (seed ^ Math.imul(salt, 0x9e3779b1)) | 0, numRuns: count });
}

/**
 * A uniform unit value in [0, 1), with enough resolution for byte offsets and delays. Unbiased:
 * fast-check otherwise favours the extremes, which would put most kills at 0 ms or at the end.
 */
export const unit = fc.noBias(fc.integer({ min: 0, max: 0xffffff })).map((value) => value / 0x1000000);

/** The element `fraction` ∈ [0, 1) of the way through `items`. */
export function pick<T>(items: readonly T[], fraction: number): T {
  if (items.length === 0) throw new Error("pick from an empty list");
  return items[Math.min(items.length - 1, Math.floor(fraction * items.length))] as T;
}

/** A permutation of `items` driven by `fractions` (one per element; missing ones count as 0). */
export function permute<T>(items: readonly T[], fractions: readonly number[]): T[] {
  const rest = [...items];
  const result: T[] = [];
  for (let index = 0; rest.length > 0; index += 1) {
    const [chosen] = rest.splice(Math.min(rest.length - 1, Math.floor((fractions[index] ?? 0) * rest.length)), 1);
    result.push(chosen as T);
  }
  return result;
}
