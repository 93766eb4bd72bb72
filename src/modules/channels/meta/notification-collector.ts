import { MAX_ITEMS } from './bounded-json';
import {
  InboundMessage,
  ParsedNotification,
  StatusUpdate,
  StatusWatermark,
} from './notification-types';

/**
 * Items examined per body, whatever their kind: past it the rest is counted as ignored without
 * being looked at, so that no body costs more than a few hundred steps.
 */
const MAX_EXAMINED = 1000;

/** Gathers a body's results within the caps, counting everything it turns down. */
export class NotificationCollector {
  readonly result: ParsedNotification = { messages: [], statuses: [], watermarks: [], ignored: 0 };
  private examined = 0;

  /**
   * Calls `visit` on the items of `items` in order while the budget lasts and `full()` is false;
   * the items not visited are counted as ignored.
   */
  each(items: readonly unknown[], visit: (item: unknown) => void, full = () => false): void {
    let index = 0;
    for (; index < items.length && this.examined < MAX_EXAMINED && !full(); index += 1) {
      this.examined += 1;
      visit(items[index]);
    }
    this.result.ignored += items.length - index;
  }

  get messagesFull(): boolean {
    return this.result.messages.length >= MAX_ITEMS;
  }

  get statusesFull(): boolean {
    return this.result.statuses.length >= MAX_ITEMS;
  }

  ignore(count = 1): void {
    this.result.ignored += count;
  }

  message(message: InboundMessage | null): void {
    this.add(this.result.messages, message);
  }

  status(status: StatusUpdate | null): void {
    this.add(this.result.statuses, status);
  }

  watermark(watermark: StatusWatermark | null): void {
    this.add(this.result.watermarks, watermark);
  }

  private add<T>(into: T[], item: T | null): void {
    if (item === null || into.length >= MAX_ITEMS) {
      this.result.ignored += 1;
    } else {
      into.push(item);
    }
  }
}

/** Runs `parse`, keeping what it collected should anything unforeseen throw. */
export function collect(parse: (collector: NotificationCollector) => void): ParsedNotification {
  const collector = new NotificationCollector();
  try {
    parse(collector);
  } catch {
    collector.ignore();
  }
  return collector.result;
}
