import { Readability } from '@mozilla/readability';
import { parseHTML as parseWithLinkedom } from 'linkedom';

/** Never knowledge: page furniture and code. */
const SKIPPED = 'script, style, noscript, template, svg, nav, header, footer, aside, form, iframe';
/** Elements that start a paragraph of their own. */
const BLOCK = new Set(
  (
    'ADDRESS ARTICLE BLOCKQUOTE DD DETAILS DIV DL DT FIGCAPTION FIGURE H1 H2 H3 H4 H5 H6 HR LI ' +
    'MAIN OL P PRE SECTION SUMMARY TABLE TBODY THEAD TR UL BR'
  ).split(' '),
);

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

interface HtmlDocument extends DomNode {
  body: DomNode | null;
  querySelectorAll(selector: string): {
    forEach(each: (element: { remove(): void }) => void): void;
  };
}

/** linkedom's DOM, typed as far as used here (its own types do not resolve under CommonJS). */
const parseHTML = parseWithLinkedom as unknown as (html: string) => { document: HtmlDocument };

/** The text of `root`, a blank line between blocks, cells of a row on one line. */
function blockText(root: DomNode): string {
  const parts: string[] = [];
  const walk = (node: DomNode) => {
    if (node.nodeType === 3) {
      parts.push(node.textContent ?? '');
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) {
      return;
    }
    const block = BLOCK.has(node.nodeName.toUpperCase());
    if (block) {
      parts.push('\n\n');
    }
    if (/^T[DH]$/i.test(node.nodeName)) {
      parts.push(' ');
    }
    Array.from(node.childNodes).forEach(walk);
    if (block) {
      parts.push('\n\n');
    }
  };
  walk(root);
  return parts
    .join('')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n\n');
}

function withoutFurniture(html: string) {
  // linkedom builds no document element for a fragment, and Readability needs one.
  const { document } = parseHTML(
    /<html[\s>]/i.test(html) ? html : `<html><body>${html}</body></html>`,
  );
  document.querySelectorAll(SKIPPED).forEach((element) => element.remove());
  return document;
}

/**
 * The readable text of an HTML page: the article Readability finds, else the body without its
 * navigation, header, footer, scripts and styles; paragraphs separated by blank lines.
 */
export function readableText(html: string): string {
  const article = new Readability(withoutFurniture(html), {
    charThreshold: 200,
  }).parse();
  if (article?.content) {
    const text = blockText(
      parseHTML(`<html><body>${article.content}</body></html>`).document.body!,
    );
    if (text) {
      const title = article.title?.trim();
      return title && !text.startsWith(title) ? `${title}\n\n${text}` : text;
    }
  }
  const document = withoutFurniture(html);
  return blockText(document.body ?? document);
}
