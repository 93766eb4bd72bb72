import { StreamSlots } from './ports';

/** Slot counts in process memory, for a single instance. */
export class MemoryStreamSlots implements StreamSlots {
  private readonly counts = new Map<string, number>();

  async acquire(subject: string, limit: number): Promise<(() => void) | null> {
    const count = this.counts.get(subject) ?? 0;
    if (count >= limit) {
      return null;
    }
    this.counts.set(subject, count + 1);
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      const remaining = (this.counts.get(subject) ?? 1) - 1;
      if (remaining > 0) {
        this.counts.set(subject, remaining);
      } else {
        this.counts.delete(subject);
      }
    };
  }

  async held(subject?: string): Promise<number> {
    return subject === undefined ? this.counts.size : (this.counts.get(subject) ?? 0);
  }
}
