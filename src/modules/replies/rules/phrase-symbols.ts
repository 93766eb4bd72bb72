import { foldCase } from './case-fold';

/** White space, a run of word characters, or any other single character. */
const TOKEN = /\s+|[\p{L}\p{N}_]+|[^]/giu;
const SPACE_START = /^\s/u;
const WORD_START = /^[\p{L}\p{N}_]/iu;

const GAP = ' ';

const enum Kind {
  Space,
  Word,
  Other,
}

/** The kind of a token, from its first character; ASCII without a regular expression. */
function kindOf(token: string): Kind {
  const code = token.charCodeAt(0);
  if (code < 0x80) {
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) {
      return Kind.Space;
    }
    const isWord =
      (code >= 0x30 && code <= 0x39) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x61 && code <= 0x7a) ||
      code === 0x5f;
    return isWord ? Kind.Word : Kind.Other;
  }
  if (SPACE_START.test(token)) {
    return Kind.Space;
  }
  return WORD_START.test(token) ? Kind.Word : Kind.Other;
}

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
  const tokens = text.match(TOKEN) ?? [];
  const kinds = tokens.map(kindOf);
  return tokens.map((token, index) => {
    switch (kinds[index]) {
      case Kind.Space:
        return GAP;
      case Kind.Word:
        return foldCase(token);
      case Kind.Other: {
        const before = Number(kinds[index - 1] === Kind.Word);
        const after = Number(kinds[index + 1] === Kind.Word);
        const folded = token.charCodeAt(0) < 0x80 ? token : foldCase(token);
        return `${before * 2 + after}${folded}`;
      }
    }
  });
}
