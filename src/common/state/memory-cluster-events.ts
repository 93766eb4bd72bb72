import { EventEmitter } from 'node:events';
import { ClusterEvents } from './ports';

/** A single instance is its own cluster. */
export class MemoryClusterEvents implements ClusterEvents {
  private readonly emitter = new EventEmitter();

  async emit(topic: string, payload: string): Promise<void> {
    this.emitter.emit(topic, payload);
  }

  on(topic: string, handler: (payload: string) => void): void {
    this.emitter.on(topic, handler);
  }
}
