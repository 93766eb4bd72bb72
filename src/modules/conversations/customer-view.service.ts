import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Errors } from '@/common/http/api-error';
import { isId } from '@/common/ids';
import { Page } from '@/common/pagination/page';
import { StreamGrant } from '@/common/state/ports';
import { Database } from '@/database/database.service';
import { SqlParams } from '@/database/sql/params';
import {
  CustomerMessageWithAttachmentsDto,
  toCustomerEvent,
  toCustomerMessage,
} from './dto/customer-message.dto';
import { StreamMessageEvent } from './dto/message.dto';
import { ConversationChannel, ConversationEntity } from './entities/conversation.entity';
import { CUSTOMER_MESSAGE_TYPES, MessageEntity } from './entities/message.entity';
import { PreparedStream } from './stream/prepared-stream';
import { StreamRequest, StreamService } from './stream/stream.service';

const customerView = (event: Record<string, unknown>) =>
  toCustomerEvent(event as unknown as StreamMessageEvent) as Record<string, unknown> | null;

/**
 * A conversation as its customer sees it, for the public surfaces (the web-chat widget): their
 * messages without notes or inbox internals, and the live stream in the same view.
 */
@Injectable()
export class CustomerViewService {
  constructor(
    private readonly db: Database,
    private readonly streams: StreamService,
  ) {}

  /** The channel user's live conversation with the agent, or null before their first message. */
  conversationOf(
    teamId: string,
    agentId: string,
    channelType: ConversationChannel,
    channelUserId: string,
  ): Promise<ConversationEntity | null> {
    return this.db.findOne(ConversationEntity, {
      teamId,
      agentId,
      channelType,
      channelUserId,
      isTestChannel: false,
    });
  }

  /**
   * One page of the conversation's customer-visible messages, oldest first; with `after`, only
   * those after that message (400 when it is not one of them).
   */
  async messages(
    conversation: Pick<ConversationEntity, 'teamId' | 'id'>,
    after: string | undefined,
    list: { page: number; limit: number },
  ): Promise<Page<CustomerMessageWithAttachmentsDto>> {
    const p = new SqlParams();
    let where =
      `team_id = ${p.add(conversation.teamId)} AND conversation_id = ${p.add(conversation.id)} ` +
      `AND message_type IN (${p.list(CUSTOMER_MESSAGE_TYPES)})`;
    if (after !== undefined) {
      const from = isId(after)
        ? await this.db.findOne(MessageEntity, {
            teamId: conversation.teamId,
            conversationId: conversation.id,
            id: after.toLowerCase(),
            messageType: CUSTOMER_MESSAGE_TYPES,
          })
        : null;
      if (!from) {
        throw Errors.validation(['after: must be the id of a message of this conversation']);
      }
      where += ` AND seq > ${p.add(from.seq)}`;
    }
    const { rows } = await this.db.execute<{ total: number | string }>(
      `SELECT COUNT(*) AS total FROM messages WHERE ${where}`,
      p.values,
    );
    const items = await this.db.entities(
      MessageEntity,
      `SELECT * FROM messages WHERE ${where} ORDER BY seq ASC ` +
        `LIMIT ${p.add(list.limit)} OFFSET ${p.add((list.page - 1) * list.limit)}`,
      p.values,
    );
    return Page.of(items.map(toCustomerMessage), Number(rows[0].total), list.page, list.limit);
  }

  /** Checks what StreamService.prepare checks after a ticket: see there. */
  prepareStream(
    res: Response,
    grant: StreamGrant,
    resume: Pick<StreamRequest, 'after' | 'lastEventId'>,
  ): Promise<PreparedStream> {
    return this.streams.prepareGrant(res, grant, resume);
  }

  openStream(res: Response, stream: PreparedStream): void {
    this.streams.open(res, stream, customerView);
  }
}
