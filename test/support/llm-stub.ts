import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { recordHandedOn } from './log-capture';

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string; tool_calls?: unknown[] }>;
  tools?: Array<{ type: 'function'; function: { name: string; parameters: unknown } }>;
  temperature?: number;
  max_tokens?: number;
}

export interface LlmStub {
  url: string;
  requests: ChatRequest[];
  /** How the next requests are answered. */
  behaviour: 'answer' | 'hang' | 'error' | 'empty';
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
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ choices: [], usage }));
          return;
        }
        case 'answer': {
          const message = answerTo(stub, request);
          const usage = usageOf(request, message);
          stub.usages.push(usage);
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
