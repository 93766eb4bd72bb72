import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { recordHandedOn } from './log-capture';

export interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: Array<{ role: string; content: string; tool_calls?: unknown[] }>;
  tools?: Array<{ type: 'function'; function: { name: string; parameters: unknown } }>;
  temperature?: number;
  max_tokens?: number;
}

export interface LlmStub {
  url: string;
  requests: ChatRequest[];
  /**
   * How the next requests are answered; `cut`: a streamed answer that stops half-way (its first
   * pieces sent, then the connection closed).
   */
  behaviour: 'answer' | 'hang' | 'error' | 'empty' | 'cut';
  /** Between the pieces of a streamed answer (0: all at once). */
  pieceDelayMs: number;
  answer: string;
  /**
   * When set and offered as a tool, a request whose last message is the customer's is answered
   * with this call; a request ending with a tool result (or a note) is answered by quoting it:
   * `Result: <its content>`.
   */
  toolCall: { name: string; arguments: Record<string, unknown> } | null;
  /** When set, replaces `toolCall`: all these calls in one answer (a model asking for many). */
  toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> | null;
  /** The text written beside the tool calls (none: `content: null`, as models mostly do). */
  toolCallText: string | null;
  /** The `Authorization` header of each chat request, in the order of `requests`. */
  authorizations: Array<string | undefined>;
  /** What GET /v1/models answers (a provider checking a key): 200 with a list, or this status. */
  modelsStatus: number;
  /** The `Authorization` header of each GET /v1/models. */
  modelsAuthorizations: Array<string | undefined>;
  /** The token counts reported, one per request answered with a body (`answer`, `empty`). */
  usages: Usage[];
  close(): Promise<void>;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** Counts that differ from request to request, as a provider's would: a token per 4 characters. */
function usageOf(request: ChatRequest, answer: unknown): Usage {
  const prompt_tokens = Math.ceil(JSON.stringify(request.messages).length / 4);
  const completion_tokens = answer === null ? 0 : Math.ceil(JSON.stringify(answer).length / 4);
  return { prompt_tokens, completion_tokens };
}

/** What the stub says to `request` when it answers. */
function answerTo(stub: LlmStub, request: ChatRequest): Record<string, unknown> {
  const last = request.messages.at(-1);
  const calls = stub.toolCalls ?? (stub.toolCall ? [stub.toolCall] : []);
  const call = calls[0];
  if (call && last?.role === 'user' && request.tools?.some((t) => t.function.name === call.name)) {
    return {
      role: 'assistant',
      content: stub.toolCallText,
      tool_calls: calls.map((each, index) => ({
        id: `call_${stub.requests.length}_${index}`,
        type: 'function',
        function: { name: each.name, arguments: JSON.stringify(each.arguments) },
      })),
    };
  }
  if (call && (last?.role === 'tool' || last?.role === 'system')) {
    return { role: 'assistant', content: `Result: ${last.content}` };
  }
  return { role: 'assistant', content: stub.answer };
}

/**
 * A message as a streamed answer writes it: the text a word at a time, each tool call's id and
 * name first and its arguments in two pieces, then a chunk with the usage and no choice.
 */
function chunksOf(message: Record<string, unknown>, usage: Usage): Record<string, unknown>[] {
  const chunk = (delta: Record<string, unknown>) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: null }],
  });
  const chunks: Record<string, unknown>[] = [chunk({ role: 'assistant', content: '' })];
  const text = typeof message.content === 'string' ? message.content : '';
  for (const word of text.match(/\S+\s*/g) ?? []) {
    chunks.push(chunk({ content: word }));
  }
  const calls = (message.tool_calls ?? []) as Array<{
    id: string;
    function: { name: string; arguments: string };
  }>;
  calls.forEach((call, index) => {
    const half = Math.ceil(call.function.arguments.length / 2);
    chunks.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: {
              name: call.function.name,
              arguments: call.function.arguments.slice(0, half),
            },
          },
        ],
      }),
      chunk({
        tool_calls: [{ index, function: { arguments: call.function.arguments.slice(half) } }],
      }),
    );
  });
  chunks.push({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    choices: [],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  });
  return chunks;
}

/** Writes `chunks` as server-sent events, `delayMs` apart; `cut`: then drops the connection. */
async function streamed(
  res: ServerResponse,
  chunks: Record<string, unknown>[],
  delayMs: number,
  cut = false,
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const chunk of chunks) {
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    if (delayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
  if (cut) {
    res.destroy();
    return;
  }
  res.end('data: [DONE]\n\n');
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(body));
  });
}

/** A small server that speaks the OpenAI chat-completions protocol, on 127.0.0.1. */
export async function startLlmStub(port = 0): Promise<LlmStub> {
  const stub = {
    requests: [] as ChatRequest[],
    behaviour: 'answer',
    answer: 'Hello from the model.',
    toolCall: null,
    toolCalls: null,
    toolCallText: null,
    usages: [] as Usage[],
    pieceDelayMs: 0,
    authorizations: [] as Array<string | undefined>,
    modelsStatus: 200,
    modelsAuthorizations: [] as Array<string | undefined>,
  } as LlmStub;
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      if (req.method === 'GET' && req.url === '/v1/models') {
        stub.modelsAuthorizations.push(req.headers.authorization);
        const listed = { object: 'list', data: [{ id: 'stub-model', object: 'model' }] };
        res
          .writeHead(stub.modelsStatus, { 'content-type': 'application/json' })
          .end(
            JSON.stringify(
              stub.modelsStatus === 200 ? listed : { error: { message: 'Incorrect API key' } },
            ),
          );
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const request = JSON.parse(body) as ChatRequest;
      stub.requests.push(request);
      stub.authorizations.push(req.headers.authorization);
      recordHandedOn('a model request', body);
      switch (stub.behaviour) {
        case 'hang':
          return;
        case 'error':
          res
            .writeHead(500, { 'content-type': 'application/json' })
            .end('{"error":{"message":"boom"}}');
          return;
        case 'empty': {
          const usage = usageOf(request, null);
          stub.usages.push(usage);
          if (request.stream) {
            void streamed(res, [{ choices: [], usage }], 0);
            return;
          }
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ choices: [], usage }));
          return;
        }
        case 'cut': {
          const pieces = chunksOf(answerTo(stub, request), usageOf(request, null));
          void streamed(
            res,
            pieces.slice(0, Math.max(1, pieces.length - 3)),
            stub.pieceDelayMs,
            true,
          );
          return;
        }
        case 'answer': {
          const message = answerTo(stub, request);
          const usage = usageOf(request, message);
          stub.usages.push(usage);
          if (request.stream) {
            void streamed(res, chunksOf(message, usage), stub.pieceDelayMs);
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              id: 'chatcmpl-1',
              object: 'chat.completion',
              choices: [{ index: 0, finish_reason: 'stop', message }],
              usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
            }),
          );
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  stub.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stub;
}
