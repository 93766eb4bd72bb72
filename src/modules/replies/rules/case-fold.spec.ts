import { foldCase } from './case-fold';

const isOneCodePoint = (text: string) => [...text].length === 1;

/** Every character with a case mapping, and what those mappings give. */
function casedCharacters(): string[] {
  const found = new Set<string>();
  for (let code = 0; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) {
      continue;
    }
    const char = String.fromCodePoint(code);
    const mapped = [char.toLowerCase(), char.toUpperCase()];
    if (mapped.some((text) => text !== char)) {
      [char, ...mapped].filter(isOneCodePoint).forEach((text) => found.add(text));
    }
  }
  return [...found];
}

describe('foldCase', () => {
  it('folds as a case-insensitive Unicode regular expression compares, for every cased character', () => {
    const chars = casedCharacters();
    const folds = chars.map(foldCase);
    const disagreements: string[] = [];
    chars.forEach((char, i) => {
      const sameChar = new RegExp(`^\\u{${char.codePointAt(0)!.toString(16)}}$`, 'iu');
      chars.forEach((other, j) => {
        if (sameChar.test(other) !== (folds[i] === folds[j])) {
          disagreements.push(`${char} ${other}`);
        }
      });
    });
    expect(disagreements).toEqual([]);
  });

  it('keeps text without case as it is and folds the rest character by character', () => {
    expect(foldCase('Refund NOW')).toBe('refund now');
    expect(foldCase('電話 123 !')).toBe('電話 123 !');
    expect(foldCase('ÜRÜN ſ \u212a')).toBe('ürün s k');
    expect(foldCase('İı')).toBe('İı');
    expect(foldCase('ΣΑΣ ςας')).toBe('σασ σασ');
  });
});
