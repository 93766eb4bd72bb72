import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { isId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { AgentsService } from '@/modules/agents/agents.service';
import { ContactsService } from '../contacts/contacts.service';
import { ConversationWrites } from '../conversation-writes';
import { ChannelUser } from '../conversations.repository';
import { MessageCreateDto } from '../dto/message.dto';
import { MessageEntity } from '../entities/message.entity';
import { TakeOver } from '../inbox/take-over';
import { ReplyRequests } from '../reply-requests.service';
import { customerMessage, MessageDraft, operatorMessage, serviceNotice } from './message-draft';
import { MessagePublisher } from './message-publisher';

const NOT_FOUND = 'Conversation not found';

/**
 * Appends a customer's or an operator's message, to a conversation by id or to a channel user's
 * (created if new): who took over, the contact details given, the message published, and the
 * reply asked for when the AI answers there, unless the service answers it itself (`notice`).
 */
@Injectable()
export class MessagePosting {
  constructor(
    private readonly db: Database,
    private readonly agents: AgentsService,
    private readonly writes: ConversationWrites,
    private readonly publisher: MessagePublisher,
    private readonly replyRequests: ReplyRequests,
    private readonly contacts: ContactsService,
    private readonly takeOver: TakeOver,
  ) {}

  async post(
    teamId: string,
    agentId: string,
    input: MessageCreateDto,
    target: { conversationId: string } | { channelUser: ChannelUser },
    given?: MessageDraft,
    notice?: string,
  ): Promise<MessageEntity> {
    const role = input.role ?? 'user';
    if (role === 'user' && input.author) {
      throw Errors.validation(['author: is only allowed on an assistant message']);
    }
    const draft =
      given ??
      (role === 'user'
        ? customerMessage(input.message)
        : operatorMessage(input.message, input.author));
    if (role === 'user') {
      this.replyRequests.assertRoom();
      // A channel's worker posts inside its own transaction: only a request waits its turn.
      if (!this.db.inTransaction) {
        await this.replyRequests.waitForTurn();
      }
    }
    // A person answering in the conversation has taken care of whatever needed attention.
    const clearsAttention = role === 'assistant';
    // Committed with the other messages, claims and replies of this turn (group commit, SQLite).
    return this.db.grouped(async () => {
      const appended =
        'conversationId' in target
          ? isId(target.conversationId)
            ? await this.writes.append(
                { teamId, agentId, id: target.conversationId },
                draft,
                clearsAttention ? { needsAttention: false } : {},
              )
            : null
          : await this.writes.appendForChannelUser(
              teamId,
              agentId,
              target.channelUser,
              draft,
              clearsAttention,
            );
      if (!appended) {
        // Nothing was written: an unknown agent reads as such, else the conversation is unknown.
        await this.agents.requireOwned(teamId, agentId);
        throw Errors.notFound(NOT_FOUND);
      }
      const { message, agentStatus } = appended;
      const conversation =
        role === 'user'
          ? await this.takeOver.customerWrote(appended.conversation)
          : await this.takeOver.operatorWrote(appended.conversation);
      if (input.contact && conversation.contactId) {
        await this.contacts.fill(teamId, conversation.contactId, input.contact);
      }
      this.publisher.publish(message);
      if (notice !== undefined) {
        const answered = await this.writes.append(conversation, serviceNotice(notice));
        if (answered) {
          this.publisher.publish(answered.message);
        }
      } else if (role === 'user' && !conversation.isAiChatPaused && agentStatus !== 'paused') {
        await this.replyRequests.requested(message);
      }
      return message;
    });
  }
}
