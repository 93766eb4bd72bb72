import { randomBytes } from 'node:crypto';
import {
  createServer,
  IncomingHttpHeaders,
  IncomingMessage,
  Server,
  ServerResponse,
} from 'node:http';
import { AddressInfo } from 'node:net';

/** How long the bytes of media of unknown size pause between chunks, so each arrives alone. */
const MEDIA_CHUNK_PAUSE_MS = 20;

export {
  messengerTextNotification,
  postSignedNotification,
  signMeta,
  whatsappImageNotification,
  whatsappStatusNotification,
  whatsappTextNotification,
} from './meta-notifications';

/**
 * The routes a test can program: `messages` (POST /{phone_number_id}/messages and POST
 * /me/messages), `account` (GET of the configured phone number or page), `profile` (GET of a
 * user), `media` (GET of a media id) and `media-bytes`.
 */
export type GraphRoute = 'messages' | 'account' | 'profile' | 'media' | 'media-bytes';

/** What the next request of a route gets instead of the normal answer. */
export interface GraphAnswer {
  status?: number;
  body?: unknown;
  /** Answer after this many milliseconds. */
  delayMs?: number;
  /** Never answer (until reset() or close()). */
  hang?: boolean;
}

export interface GraphRequest {
  method: string;
  /** The path without the version prefix: `/106540352242922/messages`. */
  path: string;
  query: Record<string, string>;
  route: GraphRoute | null;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** performance.now() when the request's body had arrived (the bench times sends by it). */
  receivedAt: number;
}

export interface FakeGraphOptions {
  accessToken?: string;
  phoneNumberId?: string;
  displayPhoneNumber?: string;
  pageId?: string;
  pageName?: string;
}

const VERSION = '/v21.0';

interface UserProfile {
  name?: string;
  username?: string;
}

/**
 * Meta's Graph API on 127.0.0.1, as the WhatsApp Cloud API and the Messenger Platform answer
 * (from their public documentation). Every route wants `Authorization: Bearer <accessToken>`,
 * else 401 with an OAuthException (code 190). `url` includes a version prefix, as
 * META_GRAPH_BASE_URL does; requests without one are served too.
 */
export class FakeGraphApi {
  readonly requests: GraphRequest[] = [];
  readonly profiles = new Map<string, UserProfile>();
  readonly media = new Map<
    string,
    { mimeType: string; bytes: Buffer; chunkBytes: number | undefined }
  >();
  private readonly queues = new Map<GraphRoute, GraphAnswer[]>();
  private readonly hanging = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    readonly options: Required<FakeGraphOptions>,
  ) {}

  /** The base URL to configure as META_GRAPH_BASE_URL. */
  get url(): string {
    return `${this.origin}${VERSION}`;
  }

  static async start(options: FakeGraphOptions = {}): Promise<FakeGraphApi> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakeGraphApi(server, `http://127.0.0.1:${port}`, {
      accessToken: options.accessToken ?? 'EAAfaketoken123',
      phoneNumberId: options.phoneNumberId ?? '106540352242922',
      displayPhoneNumber: options.displayPhoneNumber ?? '+1 555-078-3881',
      pageId: options.pageId ?? '1122334455',
      pageName: options.pageName ?? 'Test Shop',
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => fake.handle(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    return fake;
  }

  /** Queues answers for the next requests of `route`, in order. */
  failNext(route: GraphRoute, ...answers: GraphAnswer[]): void {
    this.queues.set(route, [...(this.queues.get(route) ?? []), ...answers]);
  }

  /** The requests of one route. */
  requestsOf(route: GraphRoute): GraphRequest[] {
    return this.requests.filter((request) => request.route === route);
  }

  /** A user's profile: a Messenger PSID's `name`, an Instagram IGSID's `name` and `username`. */
  setProfile(userId: string, name: string | null, username?: string): void {
    this.profiles.set(userId, { ...(name === null ? {} : { name }), username });
  }

  /**
   * Media for `GET /{media_id}` and its bytes' URL; with `chunkBytes`, its size unknown: no
   * `file_size`, and the bytes sent without a Content-Length, that many at a time, with a pause
   * between, as a CDN streaming a file may.
   */
  addMedia(mediaId: string, bytes: Buffer, mimeType = 'image/jpeg', chunkBytes?: number): void {
    this.media.set(mediaId, { mimeType, bytes, chunkBytes });
  }

  reset(): void {
    this.requests.length = 0;
    this.queues.clear();
    this.profiles.clear();
    this.media.clear();
    this.endHanging();
  }

  close(): Promise<void> {
    this.endHanging();
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private endHanging(): void {
    for (const res of this.hanging) {
      res.destroy();
    }
    this.hanging.clear();
  }

  private handle(req: IncomingMessage, raw: string, res: ServerResponse): void {
    const receivedAt = performance.now();
    const url = new URL(req.url ?? '/', this.origin);
    const path = url.pathname.replace(/^\/v\d+\.\d+(?=\/)/, '');
    const route = this.routeOf(req.method ?? 'GET', path);
    let body: unknown = raw;
    try {
      body = raw === '' ? null : (JSON.parse(raw) as unknown);
    } catch {
      // kept as the raw text
    }
    this.requests.push({
      method: req.method ?? '',
      path,
      query: Object.fromEntries(url.searchParams),
      route,
      headers: req.headers,
      body,
      receivedAt,
    });
    const answer = route === null ? undefined : this.queues.get(route)?.shift();
    if (answer?.hang) {
      this.hanging.add(res);
      return;
    }
    const respond = () => {
      if (answer?.status !== undefined) {
        this.send(res, answer.status, answer.body ?? graphError(answer.status));
      } else {
        this.answer(req, route, url, body, res);
      }
    };
    if (answer?.delayMs) {
      setTimeout(respond, answer.delayMs);
    } else {
      respond();
    }
  }

  private routeOf(method: string, path: string): GraphRoute | null {
    const segments = path.split('/').filter(Boolean).map(safeDecode);
    if (method === 'POST' && segments.length === 2 && segments[1] === 'messages') {
      return 'messages';
    }
    if (method !== 'GET') {
      return null;
    }
    if (segments.length === 2 && segments[0] === 'media-bytes') {
      return 'media-bytes';
    }
    if (segments.length !== 1) {
      return null;
    }
    const [id] = segments;
    if (id === this.options.phoneNumberId || id === this.options.pageId) {
      return 'account';
    }
    return this.media.has(id) ? 'media' : 'profile';
  }

  private answer(
    req: IncomingMessage,
    route: GraphRoute | null,
    url: URL,
    body: unknown,
    res: ServerResponse,
  ): void {
    const path = url.pathname.replace(/^\/v\d+\.\d+(?=\/)/, '');
    const query = Object.fromEntries(url.searchParams);
    if (req.headers.authorization !== `Bearer ${this.options.accessToken}`) {
      this.send(res, 401, {
        error: {
          message: 'Invalid OAuth access token - Cannot parse access token',
          type: 'OAuthException',
          code: 190,
          fbtrace_id: traceId(),
        },
      });
      return;
    }
    const id = safeDecode(path.split('/').filter(Boolean).pop() ?? '');
    switch (route) {
      case 'messages':
        this.answerSend(path, body, res);
        return;
      case 'account':
        this.send(
          res,
          200,
          id === this.options.phoneNumberId
            ? {
                verified_name: this.options.pageName,
                display_phone_number: this.options.displayPhoneNumber,
                id,
                quality_rating: 'GREEN',
              }
            : { name: this.options.pageName, id },
        );
        return;
      case 'profile':
        this.answerProfile(id, query.fields, res);
        return;
      case 'media': {
        const media = this.media.get(id)!;
        this.send(res, 200, {
          messaging_product: 'whatsapp',
          url: `${this.origin}/media-bytes/${encodeURIComponent(id)}`,
          mime_type: media.mimeType,
          sha256: 'c0ffee',
          ...(media.chunkBytes ? {} : { file_size: media.bytes.length }),
          id,
        });
        return;
      }
      case 'media-bytes': {
        const media = this.media.get(id);
        if (media?.chunkBytes) {
          void streamInChunks(res, media.bytes, media.mimeType, media.chunkBytes);
        } else if (media) {
          res.writeHead(200, { 'content-type': media.mimeType }).end(media.bytes);
        } else {
          this.send(res, 404, unknownObject(id));
        }
        return;
      }
      case null:
        this.send(res, 400, unknownObject(path));
        return;
    }
  }

  /** Only the fields asked for (`name` when none are), as the Graph API answers a user node. */
  private answerProfile(id: string, fields: string | undefined, res: ServerResponse): void {
    const profile = this.profiles.get(id);
    if (!profile) {
      this.send(res, 400, unknownObject(id));
      return;
    }
    const asked = (fields ?? 'name').split(',');
    const known = asked.filter((field) => profile[field as keyof UserProfile] !== undefined);
    this.send(res, 200, {
      ...Object.fromEntries(known.map((field) => [field, profile[field as keyof UserProfile]])),
      id,
    });
  }

  private answerSend(path: string, body: unknown, res: ServerResponse): void {
    const sender = safeDecode(path.split('/').filter(Boolean)[0]);
    const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, any>;
    if (sender === 'me') {
      const recipient = request.recipient?.id;
      if (typeof recipient !== 'string' || typeof request.message?.text !== 'string') {
        this.send(res, 400, invalidParameter('recipient and message.text are required'));
        return;
      }
      this.send(res, 200, { recipient_id: recipient, message_id: `m_${randomId(40)}` });
      return;
    }
    if (sender !== this.options.phoneNumberId) {
      this.send(res, 400, unknownObject(sender));
      return;
    }
    if (request.messaging_product !== 'whatsapp' || typeof request.to !== 'string') {
      this.send(res, 400, invalidParameter('messaging_product and to are required'));
      return;
    }
    this.send(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: request.to, wa_id: request.to }],
      messages: [{ id: `wamid.${randomId(40)}` }],
    });
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function randomId(length = 16): string {
  return randomBytes(length).toString('base64url').slice(0, length);
}

function traceId(): string {
  return randomId(11);
}

function graphError(status: number) {
  return {
    error: {
      message: status === 429 ? 'Too many requests' : `Fake Graph error ${status}`,
      type: 'OAuthException',
      code: status === 429 ? 4 : 1,
      fbtrace_id: traceId(),
    },
  };
}

function invalidParameter(details: string) {
  return {
    error: {
      message: '(#100) Invalid parameter',
      type: 'OAuthException',
      code: 100,
      error_data: { details },
      fbtrace_id: traceId(),
    },
  };
}

function unknownObject(id: string) {
  return {
    error: {
      message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      type: 'GraphMethodException',
      code: 100,
      error_subcode: 33,
      fbtrace_id: traceId(),
    },
  };
}

async function streamInChunks(
  res: ServerResponse,
  bytes: Buffer,
  mimeType: string,
  chunkBytes: number,
): Promise<void> {
  res.writeHead(200, { 'content-type': mimeType });
  for (let at = 0; at < bytes.length && !res.destroyed; at += chunkBytes) {
    res.write(bytes.subarray(at, at + chunkBytes));
    await new Promise((resolve) => setTimeout(resolve, MEDIA_CHUNK_PAUSE_MS));
  }
  res.end();
}
