import fc from 'fast-check';
import { FRESH_TICKET } from './hints';
import { OpenApiDocument, Operation } from '../support/openapi';
import {
  authArbitrary,
  bodyArbitrary,
  headersArbitrary,
  pathArbitrary,
  queryArbitrary,
} from './request-parts';
import { Resources } from './resources';
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
  return fc
    .record({
      auth: authArbitrary(keys),
      path: pathArbitrary(operation, resources),
      query: queryArbitrary(document, operation, hints),
      headers: headersArbitrary(operation),
      body: bodyArbitrary(document, operation, hints),
    })
    .map(({ auth, path, query, headers, body }) => {
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
      if (query.value.includes(`ticket=${FRESH_TICKET}`)) {
        request.freshTicketFor = {
          agentId: path.values.agentId,
          conversationId: path.values.conversationId,
        };
      }
      return request;
    });
}
