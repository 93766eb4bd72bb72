import { Injectable } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { FetchFn, OutboundHttp } from '@/common/outbound/outbound-http';
import { McpTransport } from '../dto/mcp-server-configure.dto';

export const MAX_DISCOVERED_TOOLS = 500;
const MAX_LIST_PAGES = 20;
const MAX_TOOL_NAME = 128;
const MAX_TOOL_DESCRIPTION = 10_000;

export interface McpServerAddress {
  url: string;
  transport: McpTransport;
  headers: Record<string, string>;
}

export interface McpTool {
  name: string;
  title: string | null;
  description: string | null;
  inputSchema: Record<string, unknown>;
}

export interface McpContent {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface McpToolResult {
  isError: boolean;
  content: McpContent[];
  structuredContent: Record<string, unknown> | null;
}

/** Talks to customers' MCP servers with the official SDK, through the outbound guard. */
@Injectable()
export class McpClient {
  constructor(private readonly outbound: OutboundHttp) {}

  /** Connects, lists every tool (following pages), and disconnects, all within the deadline. */
  listTools(server: McpServerAddress): Promise<McpTool[]> {
    return this.session(server, async (client, options) => {
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const result = await client.listTools(cursor ? { cursor } : undefined, options);
        for (const tool of result.tools) {
          if (tool.name.length > MAX_TOOL_NAME || tools.some((known) => known.name === tool.name)) {
            continue;
          }
          tools.push({
            name: tool.name,
            title: (tool.title ?? tool.annotations?.title ?? null)?.slice(0, 255) ?? null,
            description: tool.description?.slice(0, MAX_TOOL_DESCRIPTION) ?? null,
            inputSchema: tool.inputSchema,
          });
        }
        cursor = result.nextCursor;
        if (!cursor || tools.length >= MAX_DISCOVERED_TOOLS) {
          break;
        }
      }
      return tools.slice(0, MAX_DISCOVERED_TOOLS);
    });
  }

  /** Connects, calls one tool (`tools/call`) and disconnects, within `timeoutMs`. */
  callTool(
    server: McpServerAddress,
    name: string,
    args: Record<string, unknown>,
    timeoutMs = this.outbound.timeoutMs,
  ): Promise<McpToolResult> {
    return this.session(
      server,
      async (client, options) => {
        const result = await client.callTool({ name, arguments: args }, undefined, options);
        return {
          isError: result.isError === true,
          content: Array.isArray(result.content) ? (result.content as McpContent[]) : [],
          structuredContent: (result.structuredContent as Record<string, unknown>) ?? null,
        };
      },
      timeoutMs,
    );
  }

  /** One connection to the server for `work`, closed after it; everything within the deadline. */
  private async session<T>(
    server: McpServerAddress,
    work: (client: Client, options: RequestOptions) => Promise<T>,
    timeoutMs = this.outbound.timeoutMs,
  ): Promise<T> {
    // The SDK is loaded on first use: most processes never talk to an MCP server, and it is a
    // large part of start-up time. Loading it is not the server's time: the deadline starts after.
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    await this.transportModule(server.transport);
    const deadline = new AbortController();
    const fetch = this.outbound.fetchFor(deadline.signal);
    const timer = setTimeout(
      () => deadline.abort(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const client = new Client({ name: 'console-api', version: '1.0.0' });
    const options = { signal: deadline.signal, timeout: timeoutMs };
    try {
      await Promise.race([
        client.connect(await this.transportFor(server, fetch), options),
        aborted(deadline.signal),
      ]);
      return await Promise.race([work(client, options), aborted(deadline.signal)]);
    } catch (error) {
      throw withoutCredentials(error, server.headers);
    } finally {
      clearTimeout(timer);
      await client.close().catch(() => undefined);
    }
  }

  private transportModule(transport: McpTransport): Promise<unknown> {
    return transport === 'http_sse'
      ? import('@modelcontextprotocol/sdk/client/sse.js')
      : import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  }

  private async transportFor(server: McpServerAddress, fetch: FetchFn): Promise<Transport> {
    const url = new URL(server.url);
    const options = { requestInit: { headers: server.headers }, fetch };
    if (server.transport === 'http_sse') {
      const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
      return new SSEClientTransport(url, options);
    }
    const { StreamableHTTPClientTransport } =
      await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(url, options);
  }
}

/** An error's message with its cause's, as fetch failures keep the useful part in the cause. */
export function describeError(error: unknown): string {
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  const message = error instanceof Error ? error.message : String(error);
  return cause && !message.includes(cause) ? `${message}: ${cause}` : message;
}

/**
 * The failure, described with the credentials it was sent masked: a server may echo the request
 * headers in its error body, and the SDK quotes that body in its message.
 */
function withoutCredentials(error: unknown, headers: Record<string, string>): Error {
  const credentials = Object.values(headers)
    .flatMap((value) => [value, value.replace(/^\S+\s+/, '')])
    .filter((credential) => credential.length > 0)
    .sort((a, b) => b.length - a.length);
  return new Error(
    credentials.reduce(
      (masked, credential) => masked.split(credential).join('[redacted]'),
      describeError(error),
    ),
  );
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () =>
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) {
      fail();
    } else {
      signal.addEventListener('abort', fail, { once: true });
    }
  });
}
