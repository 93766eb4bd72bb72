import { Inject, Injectable, MessageEvent, OnModuleDestroy } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable, ReplaySubject, takeUntil } from 'rxjs';
import { Errors } from '@/common/http/api-error';
import { isId } from '@/common/ids';
import { MESSAGE_BUS, MessageBus, STREAM_SLOTS, StreamSlots } from '@/common/state/ports';
import { AppConfig } from '@/config/app-config';
import { ConversationsRepository } from '../conversations.repository';
import { MessagesRepository } from '../messages/messages.repository';
import { conversationStream, StreamStart } from './conversation-stream';
import { StreamTicketsService } from './stream-tickets.service';

/** Seconds a client refused for too many streams is asked to wait. */
const STREAM_RETRY_AFTER_S = 5;
const ISO_8601 =
  /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

export interface StreamRequest {
  agentId: string;
  conversationId: string;
  ticket?: string;
  after?: string;
  lastEventId?: string;
}

interface PreparedStream {
  conversationId: string;
  start: StreamStart;
  release: () => void;
}

/**
 * Opens message streams in two steps. `prepare` runs in a guard and makes every refusal there, so
 * the client gets a JSON error and no SSE header: missing ticket 401; bad ticket or target 404; bad
 * resume point 400; too many streams for the key 429. (A handler cannot: behind interceptors Nest
 * sends the SSE headers before a slow handler's rejection arrives.) `observe` then only builds the
 * stream from what was prepared.
 */
@Injectable()
export class StreamService implements OnModuleDestroy {
  private readonly heartbeatMs: number;
  private readonly maxPerSubject: number;
  /** Replays to streams that open after shutdown began, so that they end at once too. */
  private readonly shutdown$ = new ReplaySubject<void>(1);

  constructor(
    private readonly tickets: StreamTicketsService,
    private readonly conversations: ConversationsRepository,
    private readonly messages: MessagesRepository,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(STREAM_SLOTS) private readonly slots: StreamSlots,
    config: AppConfig,
  ) {
    this.heartbeatMs = config.stream.heartbeatMs;
    this.maxPerSubject = config.stream.maxPerSubject;
  }

  private readonly prepared = new WeakMap<Request, PreparedStream>();

  async prepare(req: Request, res: Response, request: StreamRequest): Promise<void> {
    if (!request.ticket) {
      throw Errors.unauthorized(
        'A stream ticket is required: POST …/stream-ticket, then pass it as ?ticket=',
      );
    }
    const grant = await this.tickets.redeem(
      request.ticket,
      request.agentId,
      request.conversationId,
    );
    const conversation = await this.conversations.findOwned(
      grant.teamId,
      grant.agentId,
      grant.conversationId,
    );
    if (!conversation) {
      throw Errors.notFound('Conversation not found');
    }
    const start = await this.startingPoint(conversation.id, request.lastEventId ?? request.after);
    const release = await this.slots.acquire(grant.keyId, this.maxPerSubject);
    if (!release) {
      res.setHeader('Retry-After', STREAM_RETRY_AFTER_S);
      throw Errors.tooManyRequests(`This API key already has ${this.maxPerSubject} open streams`, {
        omitRequestId: true,
      });
    }
    // Freed when the connection closes, even if Nest never subscribes to the stream.
    res.once('close', release);
    this.prepared.set(req, { conversationId: conversation.id, start, release });
  }

  observe(req: Request): Observable<MessageEvent> {
    const stream = this.prepared.get(req);
    if (!stream) {
      throw new Error('observe() without prepare(): the stream guard did not run');
    }
    this.prepared.delete(req);
    return conversationStream(
      { messages: this.messages, bus: this.bus, heartbeatMs: this.heartbeatMs },
      stream.conversationId,
      stream.start,
      stream.release,
    ).pipe(takeUntil(this.shutdown$));
  }

  /** Ends every open stream, so that the HTTP server can close (graceful shutdown). */
  onModuleDestroy(): void {
    this.shutdown$.next();
    this.shutdown$.complete();
  }

  private async startingPoint(
    conversationId: string,
    resumeFrom: string | undefined,
  ): Promise<StreamStart> {
    if (resumeFrom === undefined || resumeFrom === '') {
      const newest = await this.messages.newest(conversationId);
      return newest
        ? { seq: newest.seq, position: newest.id }
        : { seq: 0, position: new Date().toISOString() };
    }
    if (isId(resumeFrom)) {
      const message = await this.messages.findInConversation(
        conversationId,
        resumeFrom.toLowerCase(),
      );
      if (message) {
        return { seq: message.seq, position: message.id };
      }
    } else if (ISO_8601.test(resumeFrom) && !Number.isNaN(Date.parse(resumeFrom))) {
      const time = new Date(resumeFrom);
      return {
        seq: await this.messages.seqAtTime(conversationId, time),
        position: time.toISOString(),
      };
    }
    throw Errors.validation([
      'after: must be a message id of this conversation or an ISO-8601 timestamp',
    ]);
  }
}
