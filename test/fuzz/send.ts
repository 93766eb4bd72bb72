import { Pool } from 'undici';
import { Observed } from './checker';
import { FRESH_TICKET } from './hints';
import { FuzzRequest } from './requests';
import { API } from '../support/api-client';
import { WIDGET_API } from './resources';

const TIMEOUT_MS = 30_000;

/** A failure to get any HTTP response: the connection was refused, reset or timed out. */
export class TransportError extends Error {}

/** Sends requests exactly as built (no URL normalisation), over a bounded pool of connections. */
export class Sender {
  private readonly pool: Pool;

  constructor(
    origin: string,
    connections: number,
    private readonly ownKey: string,
  ) {
    this.pool = new Pool(origin, {
      connections,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
  }

  async send(request: FuzzRequest): Promise<Observed> {
    const path = request.freshWidgetTicketFor
      ? request.url.replace(FRESH_TICKET, await this.issueWidgetTicket(request))
      : request.freshTicketFor
        ? request.url.replace(FRESH_TICKET, await this.issueTicket(request))
        : request.url;
    let res;
    try {
      res = await this.pool.request({
        path,
        method: request.method as 'GET',
        headers: request.headers,
        body: request.body,
      });
    } catch (error) {
      throw new TransportError(
        `${(error as { code?: string }).code ?? ''} ${(error as Error).message}`,
      );
    }
    const headers = res.headers as Observed['headers'];
    if (String(headers['content-type']).startsWith('text/event-stream')) {
      res.body.on('error', () => undefined).destroy();
      return { status: res.statusCode, headers, text: '' };
    }
    return { status: res.statusCode, headers, text: await res.body.text() };
  }

  /** A real ticket for the stream request's conversation (or a dud when that is not ours). */
  private async issueTicket(request: FuzzRequest): Promise<string> {
    const { agentId, conversationId } = request.freshTicketFor!;
    const res = await this.pool.request({
      path: `${API}/agents/${encodeURIComponent(agentId)}/conversations/${encodeURIComponent(conversationId)}/stream-ticket`,
      method: 'POST',
      headers: { 'X-Api-Key': this.ownKey },
    });
    const text = await res.body.text();
    return res.statusCode === 201 ? encodeURIComponent(JSON.parse(text).data.ticket) : 'no-ticket';
  }

  /** A real ticket for the widget stream request's visitor, as its page would get one. */
  private async issueWidgetTicket(request: FuzzRequest): Promise<string> {
    const { key, origin, visitorToken } = request.freshWidgetTicketFor!;
    const res = await this.pool.request({
      path: `${WIDGET_API}/stream-ticket`,
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        Origin: origin,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ visitor_token: visitorToken }),
    });
    const text = await res.body.text();
    return res.statusCode === 201 ? encodeURIComponent(JSON.parse(text).data.ticket) : 'no-ticket';
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
