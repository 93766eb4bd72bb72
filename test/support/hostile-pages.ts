/**
 * An HTML page of about `bytes` whose elements nest as deep as its size allows: Readability's
 * time grows faster than quadratically with nesting depth, so a page of a few kilobytes already
 * takes seconds and one of 2 MiB would take hours.
 */
export function nestedHtml(bytes: number): string {
  const text = '<p>Deep inside the page there is one paragraph of text.</p>';
  const depth = Math.max(1, Math.floor((bytes - text.length - 26) / '<div></div>'.length));
  return `<html><body>${'<div>'.repeat(depth)}${text}${'</div>'.repeat(depth)}</body></html>`;
}

/** An ordinary HTML page (flat paragraphs) of about `bytes`. */
export function flatHtml(bytes: number): string {
  const paragraph = '<p>Ordinary paragraph of an ordinary page, with nothing unusual in it.</p>\n';
  const count = Math.max(1, Math.ceil((bytes - 26) / paragraph.length));
  return `<html><body>${paragraph.repeat(count)}</body></html>`;
}
