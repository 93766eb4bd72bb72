/** The phrases of a rule's trigger, a comma-separated list; blank entries are no phrase. */
export function triggerPhrases(trigger: string | null | undefined): string[] {
  return (trigger ?? '')
    .split(',')
    .map((phrase) => phrase.trim())
    .filter((phrase) => phrase !== '');
}
