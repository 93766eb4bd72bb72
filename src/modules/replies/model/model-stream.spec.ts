import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { readCompletionStream } from './model-stream';

function chunk(delta: Record<string, unknown> | null, usage?: object): ChatCompletionChunk {
  return {
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: delta ? [{ index: 0, delta, finish_reason: null }] : [],
    ...(usage ? { usage } : {}),
  } as ChatCompletionChunk;
}

async function* of(...chunks: ChatCompletionChunk[]) {
  yield* chunks;
}

describe('readCompletionStream', () => {
  it('hands each piece of text on as it comes and adds them up', async () => {
    const pieces: string[] = [];
    const read = await readCompletionStream(
      of(
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Sizes ' }),
        chunk({ content: '36 to 46.' }),
        chunk(null, { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 }),
      ),
      (text) => pieces.push(text),
    );
    expect(pieces).toEqual(['Sizes ', '36 to 46.']);
    expect(read.message).toMatchObject({ role: 'assistant', content: 'Sizes 36 to 46.' });
    expect(read.message?.tool_calls).toBeUndefined();
    expect(read.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 5 });
  });

  it('puts tool calls together from their pieces, in index order', async () => {
    const read = await readCompletionStream(
      of(
        chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'refund', arguments: '' } }] }),
        chunk({
          tool_calls: [{ index: 0, id: 'a', function: { name: 'order_', arguments: '{"id"' } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { name: 'status', arguments: ':"K1"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: '{}' } }] }),
      ),
      undefined,
    );
    expect(read.message?.content).toBeNull();
    expect(read.message?.tool_calls).toEqual([
      { id: 'a', type: 'function', function: { name: 'order_status', arguments: '{"id":"K1"}' } },
      { id: 'b', type: 'function', function: { name: 'refund', arguments: '{}' } },
    ]);
  });

  it('has no message when the stream ends without a choice', async () => {
    const read = await readCompletionStream(of(chunk(null)), undefined);
    expect(read.message).toBeNull();
  });
});
