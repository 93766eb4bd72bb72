const MINUTES_PER_UNIT: Record<string, number> = {
  m: 1,
  min: 1,
  mins: 1,
  minute: 1,
  minutes: 1,
  h: 60,
  hr: 60,
  hrs: 60,
  hour: 60,
  hours: 60,
  d: 1440,
  day: 1440,
  days: 1440,
};
const MAX_MINUTES = 525_600;
const HEDGE = /^(~|about|around|approx\.?|approximately)\s*/;
const TERM = /(\d+(?:\.\d+)?)\s*([a-z]+)\.?/g;
const SEPARATORS = /,|&|\band\b/g;

/**
 * The minutes a free-text setup time states ("15", "15 min", "1 hour", "1h 30m", "2 hours"),
 * or null when it states none or something vaguer ("10-15 minutes", "a few minutes").
 */
export function minutesFromText(text: string): number | null {
  const normalized = text.trim().toLowerCase().replace(HEDGE, '');
  if (/^\d+$/.test(normalized)) {
    const minutes = Number(normalized);
    return minutes <= MAX_MINUTES ? minutes : null;
  }
  let total = 0;
  let terms = 0;
  let unknownUnit = false;
  const leftover = normalized.replace(TERM, (_match, amount: string, unit: string) => {
    const factor = MINUTES_PER_UNIT[unit];
    unknownUnit ||= factor === undefined;
    total += Number(amount) * (factor ?? 0);
    terms++;
    return ' ';
  });
  if (terms === 0 || unknownUnit || leftover.replace(SEPARATORS, '').trim() !== '') {
    return null;
  }
  const minutes = Math.round(total);
  return minutes <= MAX_MINUTES ? minutes : null;
}
