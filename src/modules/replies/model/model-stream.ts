import type {
  ChatCompletionChunk,
  ChatCompletionMessage,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';

/** What a streamed completion adds up to: the message, and the usage its last chunk reported. */
export interface StreamedCompletion {
  message: ChatCompletionMessage | null;
  usage: CompletionUsage | undefined;
}

interface ToolCallParts {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Reads a streamed chat completion to its end: the text handed to `onDelta` piece by piece as it
 * comes, the tool calls put together from their pieces (each call's id and name come once, its
 * arguments in pieces, all under the call's `index`), and the usage of the closing chunk
 * (`stream_options.include_usage`). A stream that ends without any choice has no message.
 */
export async function readCompletionStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  onDelta: ((text: string) => void) | undefined,
): Promise<StreamedCompletion> {
  let content = '';
  let sawChoice = false;
  let usage: CompletionUsage | undefined;
  const calls = new Map<number, ToolCallParts>();
  for await (const chunk of chunks) {
    usage = chunk.usage ?? usage;
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) {
      continue;
    }
    sawChoice = true;
    if (typeof delta.content === 'string' && delta.content) {
      content += delta.content;
      onDelta?.(delta.content);
    }
    for (const piece of delta.tool_calls ?? []) {
      const call = calls.get(piece.index) ?? { id: '', name: '', arguments: '' };
      call.id = piece.id ?? call.id;
      call.name += piece.function?.name ?? '';
      call.arguments += piece.function?.arguments ?? '';
      calls.set(piece.index, call);
    }
  }
  if (!sawChoice) {
    return { message: null, usage };
  }
  const toolCalls: ChatCompletionMessageToolCall[] = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({
      id: call.id || `call_${index}`,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  return {
    message: {
      role: 'assistant',
      content: content || null,
      refusal: null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    },
    usage,
  };
}
