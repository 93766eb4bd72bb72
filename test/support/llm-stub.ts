import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
}

export interface LlmStub {
  url: string;
  requests: ChatRequest[];
  /** How the next requests are answered. */
  behaviour: 'answer' | 'hang' | 'error' | 'empty';
  answer: string;
  close(): Promise<void>;
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
  } as LlmStub;
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      stub.requests.push(JSON.parse(body) as ChatRequest);
      switch (stub.behaviour) {
        case 'hang':
          return;
        case 'error':
          res
            .writeHead(500, { 'content-type': 'application/json' })
            .end('{"error":{"message":"boom"}}');
          return;
        case 'empty':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":[]}');
          return;
        case 'answer':
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              id: 'chatcmpl-1',
              object: 'chat.completion',
              choices: [
                {
                  index: 0,
                  finish_reason: 'stop',
                  message: { role: 'assistant', content: stub.answer },
                },
              ],
            }),
          );
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
