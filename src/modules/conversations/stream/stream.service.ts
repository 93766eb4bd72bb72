import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Errors } from '@/common/http/api-error';
import { isId } from '@/common/ids';
import {
  MESSAGE_BUS,
  MessageBus,
  STREAM_SLOTS,
  StreamGrant,
  StreamSlots,
  streamSubject,
} from '@/common/state/ports';
import { AppConfig } from '@/config/app-config';
import { ConversationsRepository } from '../conversations.repository';
import { MessagesRepository } from '../messages/messages.repository';
import {
  ConversationStream,
  StreamedConversation,
  StreamStart,
  StreamView,
} from './conversation-stream';
import { EventStreamWriter } from './event-stream-writer';
import { OpenStreams } from './open-streams';
import { PreparedStream } from './prepared-stream';
import { resumePoint } from './resume-point';
import { StreamTicketsService } from './stream-tickets.service';

/** Seconds a client refused for too many streams is asked to wait. */
const STREAM_RETRY_AFTER_S = 5;
/**
 * Bytes a stream may leave waiting for a client that does not keep up with its live messages
 * before it is cut off (the replay waits for the client, so never comes near it).
 */
const MAX_BACKLOG_BYTES = 1024 * 1024;
const ISO_8601 =
  /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

export interface StreamRequest {
  agentId: string;
  conversationId: string;
  ticket?: string;
  /** As parsed from the query string: absent, one value, or several. */
  after: unknown;
  /** Every Last-Event-ID header sent. */
  lastEventId: string[] | undefined;
}

/**
 * Opens message streams in two steps. `prepare` runs in a guard and makes every refusal there, so
 * the client gets a JSON error and no SSE header: missing ticket 401; bad ticket or target 404; bad
 * resume point 400; too many streams for the key 429. `open` then only starts the stream it
 * prepared, which the handler is handed through the request (see PreparedStream).
 */
@Injectable()
export class StreamService {
  private readonly heartbeatMs: number;
  private readonly maxPerSubject: number;

  constructor(
    private readonly tickets: StreamTicketsService,
    private readonly conversations: ConversationsRepository,
    private readonly messages: MessagesRepository,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(STREAM_SLOTS) private readonly slots: StreamSlots,
    private readonly openStreams: OpenStreams,
    config: AppConfig,
  ) {
    this.heartbeatMs = config.stream.heartbeatMs;
    this.maxPerSubject = config.stream.maxPerSubject;
  }

  async prepare(res: Response, request: StreamRequest): Promise<PreparedStream> {
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
    return this.prepareGrant(res, grant, request);
  }

  /**
   * Everything `prepare` checks once the ticket has been redeemed: the conversation, the resume
   * point, a slot of the grant's subject (its API key, or its visitor).
   */
  async prepareGrant(
    res: Response,
    grant: StreamGrant,
    resume: Pick<StreamRequest, 'after' | 'lastEventId'>,
  ): Promise<PreparedStream> {
    const conversation = await this.conversations.findOwned(
      grant.teamId,
      grant.agentId,
      grant.conversationId,
    );
    if (!conversation) {
      throw Errors.notFound('Conversation not found');
    }
    const start = await this.startingPoint(
      conversation,
      resumePoint(resume.after, resume.lastEventId),
    );
    const release = await this.slots.acquire(streamSubject(grant), this.maxPerSubject);
    if (!release) {
      res.setHeader('Retry-After', STREAM_RETRY_AFTER_S);
      const holder = grant.keyId === null ? 'This visitor' : 'This API key';
      throw Errors.tooManyRequests(`${holder} already has ${this.maxPerSubject} open streams`, {
        omitRequestId: true,
      });
    }
    // Freed when the connection closes, however the stream ends (or if it has closed already).
    res.once('close', release);
    if (res.destroyed) {
      release();
    }
    return { grant, conversationId: conversation.id, start };
  }

  /** Starts the prepared stream, showing each message as `view` does (the staff's by default). */
  open(res: Response, stream: PreparedStream, view?: StreamView): void {
    const writer = new EventStreamWriter(res, MAX_BACKLOG_BYTES);
    this.openStreams.track(stream.grant, writer);
    if (writer.isOpen) {
      new ConversationStream(
        { messages: this.messages, bus: this.bus, heartbeatMs: this.heartbeatMs },
        { teamId: stream.grant.teamId, id: stream.conversationId },
        stream.start,
        writer,
        view,
      ).start();
    }
  }

  private async startingPoint(
    { teamId, id }: StreamedConversation,
    resumeFrom: string | undefined,
  ): Promise<StreamStart> {
    if (resumeFrom === undefined) {
      const newest = await this.messages.newest(teamId, id);
      return newest
        ? { seq: newest.seq, position: newest.id }
        : { seq: 0, position: new Date().toISOString() };
    }
    if (isId(resumeFrom)) {
      const message = await this.messages.findOwned(teamId, id, resumeFrom.toLowerCase());
      if (message) {
        return { seq: message.seq, position: message.id };
      }
    } else if (ISO_8601.test(resumeFrom) && !Number.isNaN(Date.parse(resumeFrom))) {
      const time = new Date(resumeFrom);
      return {
        seq: await this.messages.seqAtTime(teamId, id, time),
        position: time.toISOString(),
      };
    }
    throw Errors.validation([
      'after: must be a message id of this conversation or an ISO-8601 timestamp',
    ]);
  }
}
