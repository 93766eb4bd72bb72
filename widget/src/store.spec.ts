import { DRAFT_TIMEOUT_MS, MessageStore, TYPING_TIMEOUT_MS } from './store';
import { WidgetMessage } from './types';

const at = (second: number) => new Date(Date.UTC(2026, 10, 26, 10, 0, second)).toISOString();

function message(id: string, fields: Partial<WidgetMessage> = {}): WidgetMessage {
  return {
    id,
    conversation_id: 'c1',
    role: 'assistant',
    message: `text of ${id}`,
    message_type: 'text',
    created_at: at(Number(id.replace(/\D/g, '')) || 0),
    attachments: [],
    author: { type: 'ai', name: null },
    ...fields,
  };
}

const texts = (store: MessageStore, now?: number) => store.entries(now).map((e) => e.text);

describe('MessageStore', () => {
  it('keeps each message once, in creation order, whatever order they arrive in', () => {
    const store = new MessageStore();
    expect(store.add(message('m3'))).toBe(true);
    expect(store.add(message('m1'))).toBe(true);
    expect(store.add(message('m3'))).toBe(false);
    store.add(message('m2'));
    expect(texts(store)).toEqual(['text of m1', 'text of m2', 'text of m3']);
    expect(store.lastId()).toBe('m3');
  });

  it('orders messages created in the same millisecond by id', () => {
    const store = new MessageStore();
    store.add(message('b', { created_at: at(5) }));
    store.add(message('a', { created_at: at(5) }));
    expect(store.entries().map((e) => e.key)).toEqual(['a', 'b']);
  });

  it('never shows private notes', () => {
    const store = new MessageStore();
    expect(store.add(message('m1', { private: true }))).toBe(false);
    expect(store.add(message('m2', { message_type: 'note' }))).toBe(false);
    expect(store.entries()).toEqual([]);
    expect(store.lastId()).toBeNull();
  });

  it("shows the visitor's message at once and replaces it by the stored one when the POST answers", () => {
    const store = new MessageStore();
    store.add(message('m1'));
    const key = store.addLocal('hello');
    expect(store.entries().map((e) => [e.text, e.state])).toEqual([
      ['text of m1', 'sent'],
      ['hello', 'sending'],
    ]);
    store.confirmLocal(key, message('m2', { role: 'user', message: 'hello' }));
    expect(store.entries().map((e) => [e.key, e.author, e.state])).toEqual([
      ['m1', 'ai', 'sent'],
      ['m2', 'customer', 'sent'],
    ]);
  });

  it('shows the message once when the stream brings it before the POST answers', () => {
    const store = new MessageStore();
    const key = store.addLocal('hello');
    const stored = message('m1', { role: 'user', message: 'hello' });
    store.add(stored);
    expect(texts(store)).toEqual(['hello']);
    store.confirmLocal(key, stored);
    expect(store.entries().map((e) => e.key)).toEqual(['m1']);
  });

  it('marks a message that could not be sent', () => {
    const store = new MessageStore();
    const key = store.addLocal('hello');
    store.failLocal(key);
    expect(store.entries()[0]).toMatchObject({ text: 'hello', state: 'failed' });
  });

  it('names operators, not the AI', () => {
    const store = new MessageStore();
    store.add(message('m1', { author: { type: 'operator', name: 'Ada' } }));
    store.add(message('m2'));
    expect(store.entries().map((e) => [e.author, e.name])).toEqual([
      ['operator', 'Ada'],
      ['ai', null],
    ]);
  });

  it('shows typing after a send until a reply comes, or until it times out', () => {
    const store = new MessageStore();
    store.startTyping(1000);
    expect(store.isTyping(1000)).toBe(true);
    expect(store.isTyping(1000 + TYPING_TIMEOUT_MS)).toBe(false);
    store.add(message('m1', { role: 'user' }), 1500);
    expect(store.isTyping(1500)).toBe(true);
    store.add(message('m2'), 2000);
    expect(store.isTyping(2000)).toBe(false);
  });

  it('grows a streamed reply piece by piece, then replaces it by the final message', () => {
    const store = new MessageStore();
    store.add(message('m1', { role: 'user' }));
    store.startTyping();
    store.applyDelta({ conversation_id: 'c1', reply_to: 'm1', index: 0, delta: 'Hel' });
    expect(store.isTyping()).toBe(false);
    store.applyDelta({ conversation_id: 'c1', reply_to: 'm1', index: 1, delta: 'lo' });
    store.applyDelta({ conversation_id: 'c1', reply_to: 'm1', index: 1, delta: 'lo' });
    expect(store.entries().map((e) => [e.text, e.state])).toEqual([
      ['text of m1', 'sent'],
      ['Hello', 'streaming'],
    ]);
    store.add(message('m2', { message: 'Hello!' }));
    expect(store.entries().map((e) => [e.text, e.state])).toEqual([
      ['text of m1', 'sent'],
      ['Hello!', 'sent'],
    ]);
  });

  it('puts pieces in index order and appends pieces without an index', () => {
    const store = new MessageStore();
    store.applyDelta({ reply_to: 'm1', index: 1, delta: 'b' });
    store.applyDelta({ reply_to: 'm1', index: 0, delta: 'a' });
    store.applyDelta({ reply_to: 'm1', delta: 'c' });
    expect(texts(store)).toEqual(['abc']);
  });

  it('drops a streamed reply whose final message never comes', () => {
    const store = new MessageStore();
    store.applyDelta({ reply_to: 'm1', index: 0, delta: 'Hel' }, 1000);
    expect(texts(store, 1000 + DRAFT_TIMEOUT_MS - 1)).toEqual(['Hel']);
    expect(texts(store, 1000 + DRAFT_TIMEOUT_MS)).toEqual([]);
  });
});
