import { Observable, Subject } from 'rxjs';

export interface SubjectRegistryHooks {
  /** The key gained its first local subscriber: start listening upstream. */
  onFirstSubscriber?(key: string): void;
  /** The key lost its last local subscriber: stop listening upstream. */
  onLastUnsubscribe?(key: string): void;
}

interface Entry<T> {
  subject: Subject<T>;
  subscribers: number;
}

/**
 * One RxJS Subject per key while it has local subscribers, dropped with the last one, so that a
 * key nobody watches costs nothing. The hooks tie an upstream subscription to that lifetime.
 */
export class SubjectRegistry<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly hooks: SubjectRegistryHooks = {}) {}

  /** Hot: only values given to `next` after subscribing. */
  observe(key: string): Observable<T> {
    return new Observable<T>((subscriber) => {
      const entry = this.join(key);
      const subscription = entry.subject.subscribe(subscriber);
      return () => {
        subscription.unsubscribe();
        this.leave(key, entry);
      };
    });
  }

  next(key: string, value: T): void {
    this.entries.get(key)?.subject.next(value);
  }

  nextAll(value: T): void {
    this.entries.forEach((entry) => entry.subject.next(value));
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Keys with at least one subscriber. */
  get size(): number {
    return this.entries.size;
  }

  private join(key: string): Entry<T> {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { subject: new Subject<T>(), subscribers: 0 };
      this.entries.set(key, entry);
      try {
        this.hooks.onFirstSubscriber?.(key);
      } catch (error) {
        // Not listening upstream, so not registered: the next subscriber tries again.
        this.entries.delete(key);
        throw error;
      }
    }
    entry.subscribers++;
    return entry;
  }

  private leave(key: string, entry: Entry<T>): void {
    entry.subscribers--;
    if (entry.subscribers === 0 && this.entries.get(key) === entry) {
      this.entries.delete(key);
      this.hooks.onLastUnsubscribe?.(key);
    }
  }
}
