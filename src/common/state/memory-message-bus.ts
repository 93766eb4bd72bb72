import { Observable } from 'rxjs';
import { BusItem, MessageBus } from './ports';
import { SubjectRegistry } from './subject-registry';

/** Fan-out within this process: a message reaches the streams that watch its conversation here. */
export class MemoryMessageBus implements MessageBus {
  private readonly conversations = new SubjectRegistry<BusItem>();

  publish(conversationId: string, message: BusItem): void {
    this.conversations.next(conversationId, message);
  }

  watch(conversationId: string): Observable<BusItem> {
    return this.conversations.observe(conversationId);
  }

  watchedConversations(): number {
    return this.conversations.size;
  }
}
