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
/** The streaming run: a model writing a word every PIECE_MS, about as fast as hosted models type. */
const PIECE_MS = 20;
const STREAMED_ANSWER =
  'Your order left our warehouse this morning and should reach you within two working days.';

interface ReplyTimes {
  /** Milliseconds from each POST of a customer message to its text reply on the stream. */
  reply: number[];
  /** Milliseconds from each POST to the first piece of its reply (`message.delta`). */
  firstDelta: number[];
}

async function timeReplies(
  api: ApiClient,
  origin: string,
  agentId: string,
  conversationId: string,
  count: number,
): Promise<ReplyTimes> {
  const ticket = await api.data(
    'POST',
    `/agents/${agentId}/conversations/${conversationId}/stream-ticket`,
    201,
  );
  const stream: SseConnection = await openStream(
    `${origin}${API}/agents/${agentId}/conversations/${conversationId}/messages/stream?ticket=${ticket.ticket}`,
  );
  const times: ReplyTimes = { reply: [], firstDelta: [] };
  const replies = () =>
    stream.messages().filter((m) => m.role === 'assistant' && m.message_type === 'text').length;
  const deltas = () => stream.frames.filter((frame) => frame.event === 'message.delta').length;
  try {
    for (let i = 0; i < WARMUP + count; i++) {
      const [repliesBefore, deltasBefore] = [replies(), deltas()];
      const started = performance.now();
      let firstDelta: number | null = null;
      const firstPiece = stream
        .waitFor(() => deltas() > deltasBefore, 30_000)
        .then(() => (firstDelta = performance.now() - started));
      await api.data('POST', `/agents/${agentId}/conversations/${conversationId}/messages`, 201, {
        message: `Where is my order ${i}?`,
      });
      await stream.waitFor(() => replies() > repliesBefore, 30_000);
      const replied = performance.now() - started;
      await firstPiece;
      if (i >= WARMUP) {
        times.reply.push(replied);
        times.firstDelta.push(firstDelta!);
      }
    }
  } finally {
    stream.close();
  }
  return times;
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
    // The conversations start with an operator's line: it must not pause the AI (docs/api.md §5a).
    for (const agent of [plain, withTool]) {
      await api.data('PATCH', `/agents/${agent.id}`, 200, { operator_reply_pauses_ai: false });
    }
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
      (await timeReplies(api, app.origin, plain.id, await conversation(plain.id), count)).reply,
    );
    progress(`reply-latency: ${count} replies the model writes a word every ${PIECE_MS} ms`);
    llm.answer = STREAMED_ANSWER;
    llm.pieceDelayMs = PIECE_MS;
    const streamed = await timeReplies(
      api,
      app.origin,
      plain.id,
      await conversation(plain.id),
      count,
    );
    llm.pieceDelayMs = 0;
    const [firstDelta, whole] = [summarize(streamed.firstDelta), summarize(streamed.reply)];
    llm.toolCall = { name: 'order_status', arguments: { order_id: 'A1' } };
    progress(`reply-latency: ${count} replies through an MCP tool call`);
    const tool = summarize(
      (await timeReplies(api, app.origin, withTool.id, await conversation(withTool.id), count))
        .reply,
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
        first_delta_p50_ms: round(firstDelta.p50, 1),
        first_delta_p99_ms: round(firstDelta.p99, 1),
        streamed_reply_p50_ms: round(whole.p50, 1),
        streamed_words: STREAMED_ANSWER.split(' ').length,
        piece_ms: PIECE_MS,
        replies: count,
        note:
          'customer POST → text reply on the stream, one conversation, one message at a time; ' +
          'the model stub answers at once (model time excluded); tool_*: one MCP tools/call ' +
          '(connect, call, close) and a second model round per reply; first_delta_*: POST → ' +
          `first message.delta with a streaming stub writing a word every ${PIECE_MS} ms ` +
          '(streamed_reply_p50_ms: the whole reply, for comparison)',
      },
      TARGETS['reply-latency'],
    );
  } finally {
    await app?.stop();
    await mcp.close();
    await llm.close();
  }
}
