import { Injectable } from '@nestjs/common';
import { download, DownloadError, MAX_REDIRECTS } from '@/common/outbound/outbound-download';
import { MAX_OUTBOUND_RESPONSE_BYTES, OutboundHttp } from '@/common/outbound/outbound-http';
import { LIMITS } from '@/common/validation/limits';
import { AppConfig } from '@/config/app-config';
import { PageReader } from './page-reader';

/** What a fetch came to: the page's readable text, or why there is none. */
export type PageText = { text: string; error?: undefined } | { text?: undefined; error: string };

const HTML = new Set(['text/html', 'application/xhtml+xml']);
const PLAIN = new Set(['text/plain', 'text/markdown', 'text/x-markdown']);

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** The sentence a person reads in the item's `error`. */
function explain(error: DownloadError, timeoutMs: number): string {
  switch (error.reason) {
    case 'refused':
      return `the address resolves to a private network address (${error.detail})`;
    case 'timeout':
      return `the page took longer than ${seconds(timeoutMs)}`;
    case 'too_large':
      return `the page is larger than ${MAX_OUTBOUND_RESPONSE_BYTES / 1024 / 1024} MiB`;
    case 'too_many_redirects':
      return `the page redirected more than ${MAX_REDIRECTS} times`;
    case 'unreachable':
      return `the page could not be reached (${error.detail})`;
  }
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset="?([\w-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** A page's text as long as a text item may be, cut at the last paragraph that fits. */
function withinLimit(text: string): string {
  if (text.length <= LIMITS.knowledgeContent) {
    return text;
  }
  const cut = text.slice(0, LIMITS.knowledgeContent);
  const paragraphEnd = cut.lastIndexOf('\n\n');
  return (paragraphEnd > 0 ? cut.slice(0, paragraphEnd) : cut).trim();
}

/**
 * Downloads a knowledge page through the outbound guard and keeps its readable text: HTML
 * through Readability (in a worker thread, see PageReader), plain text and Markdown as they are;
 * anything else is refused.
 */
@Injectable()
export class PageFetcher {
  readonly timeoutMs: number;

  constructor(
    private readonly outbound: OutboundHttp,
    private readonly reader: PageReader,
    config: AppConfig,
  ) {
    this.timeoutMs = config.knowledge.fetchTimeoutMs;
  }

  /** The longest one fetch takes, download and reading, while `concurrent` run side by side. */
  longestMs(concurrent: number): number {
    return this.timeoutMs + this.reader.longestMs(concurrent - 1);
  }

  async textOf(url: string): Promise<PageText> {
    let page;
    try {
      page = await download(this.outbound, url, this.timeoutMs, {
        Accept: 'text/html, text/plain;q=0.9, text/markdown;q=0.9, */*;q=0.1',
        'User-Agent': 'console-api-knowledge-fetcher/1.0',
      });
    } catch (error) {
      if (error instanceof DownloadError) {
        return { error: explain(error, this.timeoutMs) };
      }
      throw error;
    }
    if (page.status < 200 || page.status > 299) {
      return { error: `the page answered ${page.status} ${page.statusText}`.trim() };
    }
    const contentType = page.contentType ?? '';
    const mediaType = contentType.split(';')[0].trim().toLowerCase();
    if (!HTML.has(mediaType) && !PLAIN.has(mediaType)) {
      return { error: `the page is not text (${mediaType || 'no content type'})` };
    }
    const raw = decode(page.body, contentType);
    if (raw.includes('\u0000')) {
      return { error: `the page is not text (${mediaType} holding binary data)` };
    }
    const read = HTML.has(mediaType)
      ? await this.reader.read(raw, page.body.length)
      : { text: raw };
    if (read.error !== undefined) {
      return read;
    }
    const text = read.text.trim();
    return text ? { text: withinLimit(text) } : { error: 'the page has no readable text' };
  }
}
