import { Observable } from 'rxjs';
import { BusMessage, MessageBus } from './ports';
import { SubjectRegistry } from './subject-registry';

/** Fan-out within this process: a message reaches the streams that watch its conversation here. */
export class MemoryMessageBus implements MessageBus {
  private readonly conversations = new SubjectRegistry<BusMessage>();

  publish(conversationId: string, message: BusMessage): void {
    this.conversations.next(conversationId, message);
  }

  watch(conversationId: string): Observable<BusMessage> {
    return this.conversations.observe(conversationId);
  }

  watchedConversations(): number {
    return this.conversations.size;
  }
}
