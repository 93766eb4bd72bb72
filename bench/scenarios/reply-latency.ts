import { join } from 'node:path';
import { API, ApiClient } from '../../test/support/api-client';
import { randomApiKey } from '../../test/support/keys';
import { startLlmStub } from '../../test/support/llm-stub';
import { startMcpTestServer } from '../../test/support/mcp-test-server';
import { openStream, SseConnection } from '../../test/support/sse-client';
import { AppInstance, startApp } from '../lib/app-instance';
import { progress } from '../lib/log';
import { Sizes } from '../lib/options';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { round, summarize } from '../lib/stats';
import { TARGETS } from '../targets';

const WARMUP = 5;

/** Milliseconds from each POST of a customer message to its text reply on the stream. */
async function timeReplies(
  api: ApiClient,
  origin: string,
  agentId: string,
  conversationId: string,
  count: number,
): Promise<number[]> {
  const ticket = await api.data(
    'POST',
    `/agents/${agentId}/conversations/${conversationId}/stream-ticket`,
    201,
  );
  const stream: SseConnection = await openStream(
    `${origin}${API}/agents/${agentId}/conversations/${conversationId}/messages/stream?ticket=${ticket.ticket}`,
  );
  const samples: number[] = [];
  try {
    for (let i = 0; i < WARMUP + count; i++) {
      const replies = () =>
        stream.messages().filter((m) => m.role === 'assistant' && m.message_type === 'text').length;
      const before = replies();
      const started = performance.now();
      await api.data('POST', `/agents/${agentId}/conversations/${conversationId}/messages`, 201, {
        message: `Where is my order ${i}?`,
      });
      await stream.waitFor(() => replies() > before, 30_000);
      if (i >= WARMUP) {
        samples.push(performance.now() - started);
      }
    }
  } finally {
    stream.close();
  }
  return samples;
}

/**
 * Reply latency with a language model that answers at once (a local OpenAI-compatible stub), so
 * the figure is the service's own time: from a customer's POST to the reply on the stream. Plain
 * model answers, and answers through one MCP tool call (a real MCP server on 127.0.0.1).
 */
export async function replyLatency(sizes: Sizes, workDir: string): Promise<ScenarioLine> {
  const llm = await startLlmStub();
  const mcp = await startMcpTestServer([
    {
      name: 'order_status',
      description: 'The status of an order',
      inputSchema: { type: 'object', properties: { order_id: { type: 'string' } } },
      call: (args) => `Order ${String(args.order_id)} shipped`,
    },
  ]);
  let app: AppInstance | undefined;
  try {
    const key = randomApiKey();
    app = await startApp(
      'reply-latency',
      {
        DATABASE_URL: `sqlite:${join(workDir, 'replies', 'console.sqlite')}`,
        CONSOLE_BOOTSTRAP_KEY: key,
        LLM_BASE_URL: llm.url,
        OUTBOUND_ALLOW_PRIVATE: 'true',
      },
      workDir,
    );
    const api = new ApiClient(app.origin, key);
    const plain = await api.createAgent('Replies');
    const withTool = await api.createAgent('Replies with a tool');
    const server = await api.data(
      'POST',
      `/agents/${withTool.id}/integrations/mcp_server/configure`,
      201,
      { name: 'Shop', server_url: `${mcp.url}/mcp` },
    );
    await api.data(
      'POST',
      `/agents/${withTool.id}/integrations/mcp_server/${server.id}/discover`,
      200,
    );
    const conversation = async (agentId: string) =>
      (
        await api.data('POST', `/agents/${agentId}/conversations/messages`, 201, {
          message: 'hi',
          role: 'assistant',
          channel_type: 'webchat',
          channel_user_id: `bench-${agentId}`,
        })
      ).conversation_id as string;
    const count = sizes.replySamples;
    progress(`reply-latency: ${count} replies from the model`);
    const model = summarize(
      await timeReplies(api, app.origin, plain.id, await conversation(plain.id), count),
    );
    llm.toolCall = { name: 'order_status', arguments: { order_id: 'A1' } };
    progress(`reply-latency: ${count} replies through an MCP tool call`);
    const tool = summarize(
      await timeReplies(api, app.origin, withTool.id, await conversation(withTool.id), count),
    );
    api.close();
    return scenarioLine(
      'reply-latency',
      {
        mode: sizes.mode,
        p50_ms: round(model.p50, 1),
        p99_ms: round(model.p99, 1),
        tool_p50_ms: round(tool.p50, 1),
        tool_p99_ms: round(tool.p99, 1),
        replies: count,
        note:
          'customer POST → text reply on the stream, one conversation, one message at a time; ' +
          'the model stub answers at once (model time excluded); tool_*: one MCP tools/call ' +
          '(connect, call, close) and a second model round per reply',
      },
      TARGETS['reply-latency'],
    );
  } finally {
    await app?.stop();
    await mcp.close();
    await llm.close();
  }
}
