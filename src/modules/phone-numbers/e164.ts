/** ITU-T E.164: a plus sign, a country code that does not start with 0, at most 15 digits. */
const E164 = /^\+[1-9]\d{1,14}$/;

export function isE164(value: string): boolean {
  return E164.test(value);
}
