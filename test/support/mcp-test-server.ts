import {
  createServer,
  IncomingHttpHeaders,
  IncomingMessage,
  Server as HttpServer,
  ServerResponse,
} from 'node:http';
import { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** A tool's answer: its text, or its text with `structuredContent` beside it. */
export type TestToolAnswer = string | { text: string; structuredContent: Record<string, unknown> };

export interface TestTool {
  name: string;
  description?: string;
  title?: string;
  inputSchema?: { type: 'object'; properties?: Record<string, object>; required?: string[] };
  /**
   * What `tools/call` answers (given the call's arguments and the HTTP request's headers): text,
   * text with structured content, or a thrown error (an error result); none: 'ok'.
   */
  call?: (
    args: Record<string, unknown>,
    headers: IncomingHttpHeaders,
  ) => TestToolAnswer | Promise<TestToolAnswer>;
}

export interface McpTestServer {
  url: string;
  /** The tools the server lists; change it between discoveries. */
  tools: TestTool[];
  /** When set, requests without `Authorization: Bearer <token>` get 401. */
  requiredToken: string | null;
  /** Tools per tools/list page, to exercise cursors. */
  pageSize: number;
  /** The headers of every request received, oldest first. */
  receivedHeaders: IncomingHttpHeaders[];
  /** Every `tools/call` received, oldest first. */
  calls: Array<{ name: string; arguments: Record<string, unknown> }>;
  close(): Promise<void>;
}

/**
 * A real MCP server, built with the same SDK, on 127.0.0.1: streamable HTTP at /mcp (stateless)
 * and the older HTTP+SSE transport at /sse with its POST endpoint /messages. On `port` when given
 * (a server that comes up where one was missing), else on a free one.
 */
export async function startMcpTestServer(tools: TestTool[], port = 0): Promise<McpTestServer> {
  const state: Omit<McpTestServer, 'url' | 'close'> = {
    tools,
    requiredToken: null,
    pageSize: 100,
    receivedHeaders: [],
    calls: [],
  };
  const sseSessions = new Map<string, SSEServerTransport>();

  const newServer = () => {
    const server = new Server(
      { name: 'console-test-mcp', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const start = Number(request.params?.cursor ?? 0);
      const page = state.tools.slice(start, start + state.pageSize);
      const next =
        start + state.pageSize < state.tools.length ? String(start + state.pageSize) : undefined;
      return {
        tools: page.map((tool) => ({
          name: tool.name,
          title: tool.title,
          description: tool.description,
          inputSchema: tool.inputSchema ?? {
            type: 'object' as const,
            properties: { query: { type: 'string' } },
          },
        })),
        ...(next ? { nextCursor: next } : {}),
      };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const args = request.params.arguments ?? {};
      state.calls.push({ name: request.params.name, arguments: args });
      const tool = state.tools.find((known) => known.name === request.params.name);
      try {
        const answer = tool?.call ? await tool.call(args, extra.requestInfo?.headers ?? {}) : 'ok';
        if (typeof answer !== 'string') {
          return {
            content: [{ type: 'text' as const, text: answer.text }],
            structuredContent: answer.structuredContent,
          };
        }
        return { content: [{ type: 'text' as const, text: answer }] };
      } catch (error) {
        return { isError: true, content: [{ type: 'text' as const, text: String(error) }] };
      }
    });
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    state.receivedHeaders.push(req.headers);
    if (state.requiredToken && req.headers.authorization !== `Bearer ${state.requiredToken}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/mcp') {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const server = newServer();
      res.on('close', () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      await transport.handleRequest(req, res);
      return;
    }
    if (path === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sseSessions.set(transport.sessionId, transport);
      res.on('close', () => sseSessions.delete(transport.sessionId));
      await newServer().connect(transport);
      return;
    }
    if (path === '/messages' && req.method === 'POST') {
      const sessionId =
        new URL(req.url ?? '/', 'http://localhost').searchParams.get('sessionId') ?? '';
      const transport = sseSessions.get(sessionId);
      if (!transport) {
        res.writeHead(404).end();
        return;
      }
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) {
        res.writeHead(500);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const result = state as McpTestServer;
  result.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  result.close = () =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
  return result;
}
