const TARGET_PASSAGE_CHARS = 800;
const MAX_PASSAGE_CHARS = 1200;
/** A paragraph shorter than this with no sentence end (a heading, a label) joins the next one. */
const MAX_HEADING_CHARS = 60;

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

/** Packs sentences into chunks of about TARGET_PASSAGE_CHARS. */
function chunk(sentences: string[]): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    if (current && current.length + sentence.length + 1 > TARGET_PASSAGE_CHARS) {
      chunks.push(current);
      current = sentence;
    } else {
      current = current ? `${current} ${sentence}` : sentence;
    }
  }
  return current ? [...chunks, current] : chunks;
}

function isHeading(paragraph: string): boolean {
  return paragraph.length < MAX_HEADING_CHARS && !/[.!?]["')\]]*$/.test(paragraph);
}

/**
 * Splits a text into passages that read as units: each paragraph is one (a heading joins the
 * paragraph under it), and a paragraph too long for one is cut at sentence ends.
 */
export function toPassages(text: string): string[] {
  const paragraphs: string[] = [];
  let heading = '';
  for (const raw of text.split(/\n\s*\n/)) {
    const paragraph = `${heading} ${raw.replace(/\s+/g, ' ')}`.trim();
    if (paragraph && isHeading(paragraph)) {
      heading = paragraph;
    } else if (paragraph) {
      paragraphs.push(paragraph);
      heading = '';
    }
  }
  if (heading) {
    paragraphs.push(heading);
  }
  return paragraphs.flatMap((paragraph) =>
    paragraph.length <= MAX_PASSAGE_CHARS
      ? [paragraph]
      : chunk(
          sentencesOf(paragraph).flatMap((s) =>
            s.length <= MAX_PASSAGE_CHARS ? [s] : hardWrap(s),
          ),
        ),
  );
}

/**
 * A page's title: its first paragraph when that is a heading (readable-text.ts puts the
 * article's title first), else ''. Every passage of the page is read under it: "Cancellations
 * are refunded in full" is about the catering of a page titled "Catering for events".
 */
export function pageTitle(text: string): string {
  const first = text
    .split(/\n\s*\n/, 1)[0]
    .replace(/\s+/g, ' ')
    .trim();
  return first && isHeading(first) ? first : '';
}
