import { Figures } from './report';
import { round } from './stats';

/**
 * Baseline rounds and scenario rounds alternating in time, every scenario round between two
 * baseline rounds: B S B S … S B (`rounds` scenario rounds, one baseline round more).
 */
export async function alternate<B, S>(
  rounds: number,
  baselineRound: () => Promise<B>,
  scenarioRound: () => Promise<S>,
): Promise<{ baseline: B[]; scenario: S[] }> {
  const baseline = [await baselineRound()];
  const scenario: S[] = [];
  for (let i = 0; i < rounds; i++) {
    scenario.push(await scenarioRound());
    baseline.push(await baselineRound());
  }
  return { baseline, scenario };
}

/** The middle value (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) {
    return null;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The mean of the figures that exist; null when none does. */
export function meanOf(values: readonly (number | null | undefined)[]): number | null {
  const known = values.filter((value): value is number => typeof value === 'number');
  return known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0) / known.length;
}

/** Rounds are figures or load results: any object whose fields are looked up by name. */
type Rounds = readonly object[];

function numbersOf(rounds: Rounds, field: string): number[] {
  return rounds
    .map((figures) => (figures as Record<string, unknown>)[field])
    .filter((value): value is number => typeof value === 'number' && Number.isFinite(value));
}

/** The rounds' median of `field` (null when no round has it). */
export function medianOf(rounds: Rounds, field: string, digits = 2): Figures {
  return { [field]: round(median(numbersOf(rounds, field)), digits) };
}

/** As medianOf, with the lowest and highest round beside it as `<field>_min` and `<field>_max`. */
export function spreadOf(rounds: Rounds, field: string, digits = 3): Figures {
  const values = numbersOf(rounds, field);
  return {
    ...medianOf(rounds, field, digits),
    [`${field}_min`]: values.length > 0 ? round(Math.min(...values), digits) : null,
    [`${field}_max`]: values.length > 0 ? round(Math.max(...values), digits) : null,
  };
}

/** The rounds' total of `field`. */
export function sumOf(rounds: Rounds, field: string, digits = 2): number | null {
  return round(
    numbersOf(rounds, field).reduce((sum, value) => sum + value, 0),
    digits,
  );
}
