import { STATUS_CODES } from 'node:http';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { API } from '../support/api-client';
import { forAjv, OpenApiDocument, Operation } from '../support/openapi';
import { UNKNOWN_QUERY_PARAMETER } from './request-parts';

export interface Observed {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text; for a stream, whatever arrived before the check. */
  text: string;
}

/** The codes docs/api.md §1 allows for each error status. */
const CODES_BY_STATUS: Record<number, string[]> = {
  400: ['validation_error', 'bad_request'],
  401: ['api_key_missing', 'unauthorized', 'api_key_invalid', 'api_key_expired'],
  403: ['insufficient_scope', 'forbidden', 'agent_limit_reached'],
  404: ['not_found'],
  409: ['conflict'],
  413: ['bad_request'],
  415: ['bad_request'],
  431: ['bad_request'],
  422: ['conflict'],
  429: ['too_many_requests'],
  501: ['not_implemented'],
  502: ['internal_error'],
  503: ['internal_error'],
};

const LEAKS =
  /\n\s+at .+:\d+|node_modules|QueryFailedError|SQLITE_|syntax error at|TypeError|ReferenceError|\/src\/|\.ts:\d+/;
const FIELD_ERROR = /^[^:]+: .+/s;
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** Checks responses against the served document and the error contract of docs/api.md §1. */
export class ContractChecker {
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(forAjv({ components: document.components }), 'openapi.json');
  }

  private validatorFor(operation: Operation, status: number): ValidateFunction | undefined {
    const key = `${operation.name} ${status}`;
    if (!this.validators.has(key)) {
      const schema = operation.responses.get(status)?.schema;
      if (!schema) {
        return undefined;
      }
      const rewritten = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'),
      );
      this.validators.set(key, this.ajv.compile(rewritten));
    }
    return this.validators.get(key);
  }

  /** Every way the response breaks the contract, as short reasons (empty: it conforms). */
  check(operation: Operation, response: Observed): string[] {
    const { status } = response;
    const problems: string[] = [];
    if (status >= 500 && !operation.responses.has(status)) {
      problems.push(`server error ${status}`);
    } else if (!operation.responses.has(status)) {
      problems.push(`undocumented status ${status}`);
    }
    const requestId = header(response, 'x-request-id');
    if (!requestId) {
      problems.push('no X-Request-Id header');
    }
    // A 431 comes from the HTTP parser, before any key is read: there is no budget to report.
    if (
      operation.secured &&
      status !== 431 &&
      RATE_LIMIT_HEADERS.some((name) => !header(response, name))
    ) {
      problems.push('missing X-RateLimit-* headers');
    }
    if (status >= 400 && LEAKS.test(response.text)) {
      problems.push('body leaks internals (stack trace, SQL or source path)');
    }
    const documented = operation.responses.get(status);
    const contentType = header(response, 'content-type') ?? '';
    if (documented && !contentType.startsWith(documented.contentType)) {
      problems.push(`content-type ${contentType || '(none)'} instead of ${documented.contentType}`);
      return problems;
    }
    if (!contentType.startsWith('application/json')) {
      return problems;
    }
    let body: any;
    try {
      body = JSON.parse(response.text);
    } catch {
      return [...problems, 'body is not valid JSON'];
    }
    const validate = this.validatorFor(operation, status);
    if (validate && !validate(body)) {
      const first = validate.errors?.[0];
      problems.push(
        `body does not match the documented schema: ${first?.instancePath || '/'} ${first?.message}`,
      );
    }
    if (status >= 400) {
      const replayed = header(response, 'idempotent-replayed') === 'true';
      problems.push(...errorBodyProblems(operation, status, body, requestId, replayed));
    }
    return problems;
  }
}

/**
 * docs/api.md §1: a request with a query parameter its route does not take never succeeds
 * (the probes outside the API prefix aside).
 */
export function strictQueryProblems(
  operation: Operation,
  tags: string[],
  status: number,
): string[] {
  const unknownSent = tags.some((tag) => tag.startsWith(`query:${UNKNOWN_QUERY_PARAMETER}`));
  const underApi = operation.path.startsWith(`${API}/`);
  return unknownSent && underApi && status < 300
    ? [`unknown query parameter accepted (${status})`]
    : [];
}

function header(response: Observed, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function errorBodyProblems(
  operation: Operation,
  status: number,
  body: any,
  requestId: string | undefined,
  replayed: boolean,
): string[] {
  const problems: string[] = [];
  if (!CODES_BY_STATUS[status]?.includes(body?.code)) {
    problems.push(`error code ${JSON.stringify(body?.code)} for status ${status}`);
  }
  if (body?.statusCode !== status) {
    problems.push('statusCode differs from the status');
  }
  if (body?.error !== STATUS_CODES[status]) {
    problems.push(`error ${JSON.stringify(body?.error)} is not the reason phrase`);
  }
  const isStreamLimit = status === 429 && operation.path.endsWith('stream');
  // A replay is the first response byte for byte (docs/api.md §1, idempotency): its first request's id.
  if (!isStreamLimit && !replayed && body?.request_id !== requestId) {
    problems.push('request_id differs from X-Request-Id');
  }
  if (body?.code === 'validation_error') {
    const messages: unknown = body.message;
    if (
      !Array.isArray(messages) ||
      messages.length === 0 ||
      !messages.every((m) => typeof m === 'string' && FIELD_ERROR.test(m))
    ) {
      problems.push('validation_error message is not a list of "<field>: <problem>"');
    }
  } else if (typeof body?.message !== 'string' || body.message.length === 0) {
    problems.push('error message is not a sentence');
  }
  return problems;
}
