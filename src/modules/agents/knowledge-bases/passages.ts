const TARGET_PASSAGE_CHARS = 800;
const MAX_PASSAGE_CHARS = 1200;

function sentencesOf(paragraph: string): string[] {
  return (
    paragraph
      .match(/[^.!?]+(?:[.!?]+["')\]]*\s*|$)/g)
      ?.map((s) => s.trim())
      .filter(Boolean) ?? [paragraph]
  );
}

function hardWrap(text: string): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += MAX_PASSAGE_CHARS) {
    pieces.push(text.slice(start, start + MAX_PASSAGE_CHARS));
  }
  return pieces;
}

/**
 * Splits a text into passages of about TARGET_PASSAGE_CHARS: whole paragraphs where they fit,
 * sentences where a paragraph is too long, so that a retrieved passage reads as a unit.
 */
export function toPassages(text: string): string[] {
  const units = text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .flatMap((paragraph) =>
      paragraph.length <= MAX_PASSAGE_CHARS ? [paragraph] : sentencesOf(paragraph),
    )
    .flatMap((unit) => (unit.length <= MAX_PASSAGE_CHARS ? [unit] : hardWrap(unit)));
  const passages: string[] = [];
  let current = '';
  for (const unit of units) {
    if (current && current.length + unit.length + 1 > TARGET_PASSAGE_CHARS) {
      passages.push(current);
      current = unit;
    } else {
      current = current ? `${current} ${unit}` : unit;
    }
  }
  if (current) {
    passages.push(current);
  }
  return passages;
}
