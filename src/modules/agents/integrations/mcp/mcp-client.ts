import { Injectable } from '@nestjs/common';
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

/** Talks to customers' MCP servers with the official SDK, through the outbound guard. */
@Injectable()
export class McpClient {
  constructor(private readonly outbound: OutboundHttp) {}

  /** Connects, lists every tool (following pages), and disconnects, all within the deadline. */
  async listTools(server: McpServerAddress): Promise<McpTool[]> {
    const deadline = new AbortController();
    const fetch = this.outbound.fetchFor(deadline.signal);
    const timer = setTimeout(
      () => deadline.abort(new Error(`no answer within ${this.outbound.timeoutMs} ms`)),
      this.outbound.timeoutMs,
    );
    // The SDK is loaded on first use: most processes never talk to an MCP server, and it is a
    // large part of start-up time.
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new Client({ name: 'console-api', version: '1.0.0' });
    try {
      await Promise.race([
        client.connect(await this.transportFor(server, fetch), {
          signal: deadline.signal,
          timeout: this.outbound.timeoutMs,
        }),
        aborted(deadline.signal),
      ]);
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const result = await client.listTools(cursor ? { cursor } : undefined, {
          signal: deadline.signal,
          timeout: this.outbound.timeoutMs,
        });
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
    } catch (error) {
      throw withoutCredentials(error, server.headers);
    } finally {
      clearTimeout(timer);
      await client.close().catch(() => undefined);
    }
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
