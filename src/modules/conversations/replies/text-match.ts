const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our please so than that the their them then there these they this to too us ' +
    'was we were what when where which who why will with would you your yours hi hello hey'
  ).split(' '),
);

/** Lower-case words (letters and digits of any script), without stop words. */
export function terms(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .filter((word) => !STOP_WORDS.has(word))
    .map(stem);
}

/** A light suffix-stripping stem, so that "refunds" finds "refund" and "booking" finds "book". */
function stem(word: string): string {
  let stemmed = word;
  for (let pass = 0; pass < 2 && stemmed.length > 4; pass++) {
    const suffix = ['ing', 'ies', 'ed', 'es', 's'].find(
      (s) => stemmed.endsWith(s) && stemmed.length - s.length >= 3,
    );
    if (!suffix) {
      break;
    }
    stemmed = suffix === 'ies' ? `${stemmed.slice(0, -3)}y` : stemmed.slice(0, -suffix.length);
  }
  return stemmed;
}
