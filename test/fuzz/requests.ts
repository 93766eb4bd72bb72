import fc from 'fast-check';
import { FRESH_TICKET, VISITOR_TOKEN } from './hints';
import { OpenApiDocument, Operation } from '../support/openapi';
import {
  authArbitrary,
  bodyArbitrary,
  headersArbitrary,
  pathArbitrary,
  queryArbitrary,
  WidgetAuth,
  widgetAuthArbitrary,
  widgetHeaders,
} from './request-parts';
import { Resources, WEBCHAT, WIDGET_API } from './resources';
import { Hints } from './schema-arbitrary';
import { Keys } from './seed';

export interface FuzzRequest {
  operation: Operation;
  method: string;
  /** Path and query, percent-encoded (or deliberately not). */
  url: string;
  /** The real ids the path was built from (before any garbage replaced one). */
  pathValues: Record<string, string>;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What makes this request unusual, for the report. */
  tags: string[];
  /** A stream request whose ticket is issued just before sending, for this agent and conversation. */
  freshTicketFor?: { agentId: string; conversationId: string };
  /** A widget stream request whose ticket is issued just before sending, for this visitor. */
  freshWidgetTicketFor?: { key: string; origin: string; visitorToken: string };
}

export interface GeneratorContext {
  document: OpenApiDocument;
  resources: Resources;
  keys: Keys;
  hints: Hints;
}

/** Requests for one operation: mostly plausible, often hostile in one or two ways. */
export function requestArbitrary(
  operation: Operation,
  context: GeneratorContext,
): fc.Arbitrary<FuzzRequest> {
  const { document, resources, keys, hints } = context;
  const isWidget = operation.path.startsWith(`${WIDGET_API}/`);
  return fc
    .record({
      auth: authArbitrary(keys),
      widget: widgetAuthArbitrary(),
      path: pathArbitrary(operation, resources),
      query: queryArbitrary(document, operation, hints),
      headers: headersArbitrary(operation),
      body: bodyArbitrary(document, operation, hints),
    })
    .map(({ auth, widget, path, query, headers, body }) => {
      const request: FuzzRequest = {
        operation,
        method: operation.method,
        url: query.value ? `${path.url}?${query.value}` : path.url,
        pathValues: path.values,
        headers: { ...auth.value, ...headers.value },
        tags: [auth.tag, path.tag, query.tag, headers.tag, body?.tag].filter((tag): tag is string =>
          Boolean(tag),
        ),
      };
      if (body) {
        request.body = body.body;
        const contentType = body.contentType ?? 'application/json';
        if (contentType) {
          request.headers['Content-Type'] = contentType;
        }
      }
      if (isWidget) {
        return asWidgetRequest(request, widget, context);
      }
      if (query.value.includes(`ticket=${FRESH_TICKET}`)) {
        request.freshTicketFor = {
          agentId: path.values.agentId,
          conversationId: path.values.conversationId,
        };
      }
      return request;
    });
}

/**
 * A request of the public web-chat API: the key and origin of one of the seeded web chats (mostly
 * as its pages send them, else spoilt), and that chat's visitor wherever a visitor token goes.
 */
function asWidgetRequest(
  request: FuzzRequest,
  { index, variant }: WidgetAuth,
  { resources, keys }: GeneratorContext,
): FuzzRequest {
  const chat = resources.pick(WEBCHAT, index % 7 === 0 ? 'other' : 'own', index)?.values ?? {
    key: 'pk_none',
    origin: 'https://fuzz.example',
    visitorToken: 'vt_none',
  };
  // The API key headers make way for the web chat's (the key is not sent where it does not go).
  const others = Object.fromEntries(
    Object.entries(request.headers).filter(
      ([name]) => !['authorization', 'x-api-key'].includes(name.toLowerCase()),
    ),
  );
  const withToken = (text: string) => text.split(VISITOR_TOKEN).join(chat.visitorToken);
  const widgetRequest: FuzzRequest = {
    ...request,
    url: withToken(request.url),
    body: typeof request.body === 'string' ? withToken(request.body) : request.body,
    headers: { ...others, ...widgetHeaders({ key: chat.key, origin: chat.origin }, variant, keys) },
    tags: [
      ...request.tags.filter((tag) => !tag.startsWith('auth:')),
      ...(variant ? [variant] : []),
    ],
  };
  if (request.url.includes(`ticket=${FRESH_TICKET}`)) {
    widgetRequest.freshWidgetTicketFor = {
      key: chat.key,
      origin: chat.origin,
      visitorToken: chat.visitorToken,
    };
  }
  return widgetRequest;
}
