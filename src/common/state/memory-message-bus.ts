import { Observable, Subject } from 'rxjs';
import { BusMessage, MessageBus } from './ports';

interface Channel {
  subject: Subject<BusMessage>;
  watchers: number;
}

/**
 * One RxJS Subject per conversation while someone in this process watches it, dropped with the
 * last watcher, so that idle conversations cost nothing.
 */
export class MemoryMessageBus implements MessageBus {
  private readonly channels = new Map<string, Channel>();

  publish(conversationId: string, message: BusMessage): void {
    this.channels.get(conversationId)?.subject.next(message);
  }

  watch(conversationId: string): Observable<BusMessage> {
    return new Observable<BusMessage>((subscriber) => {
      let channel = this.channels.get(conversationId);
      if (!channel) {
        channel = { subject: new Subject<BusMessage>(), watchers: 0 };
        this.channels.set(conversationId, channel);
      }
      channel.watchers++;
      const subscription = channel.subject.subscribe(subscriber);
      const joined = channel;
      return () => {
        subscription.unsubscribe();
        joined.watchers--;
        if (joined.watchers === 0 && this.channels.get(conversationId) === joined) {
          this.channels.delete(conversationId);
        }
      };
    });
  }

  watchedConversations(): number {
    return this.channels.size;
  }
}
