import { foldCase } from './case-fold';

/** White space, a run of word characters, or any other single character. */
const TOKEN = /(\s+)|([\p{L}\p{N}_]+)|[^]/giu;

const GAP = ' ';

/**
 * A text as the symbols phrases are matched on, one per token: white space becomes one gap, a run
 * of word characters (letters, digits and `_` of any script) its case-folded text, and any other
 * character its case-folded self tagged with whether a word character touches it on either side.
 *
 * A phrase then occurs as whole words in a text (case-insensitively, any run of white space
 * between its words) exactly when its symbols occur in the text's symbols: a word run is whole
 * by construction, and a phrase that starts or ends with punctuation carries "no word character
 * before" or "after" in its first or last tag.
 */
export function phraseSymbols(text: string): string[] {
  const tokens = [...text.matchAll(TOKEN)];
  const isWordRun = (index: number) => tokens[index]?.[2] !== undefined;
  return tokens.map((token, index) => {
    if (token[1] !== undefined) {
      return GAP;
    }
    if (token[2] !== undefined) {
      return foldCase(token[2]);
    }
    const touching = Number(isWordRun(index - 1)) * 2 + Number(isWordRun(index + 1));
    return `${touching}${foldCase(token[0])}`;
  });
}
