import { TeamQueueController } from './queue/team-queue.controller';
import { Module } from '@nestjs/common';
import { OutboundModule } from '@/common/outbound/outbound.module';
import { AgentsModule } from '@/modules/agents/agents.module';
import { ApiKeysModule } from '@/modules/auth/api-keys.module';
import { UsageModule } from '@/modules/usage/usage.module';
import { WebhooksModule } from '@/modules/webhooks/webhooks.module';
import { ContactsController } from './contacts/contacts.controller';
import { ContactsRepository } from './contacts/contacts.repository';
import { ContactsService } from './contacts/contacts.service';
import { ConversationEvents } from './conversation-events';
import { ChannelOutbox } from './channel-outbox.service';
import { ConversationWrites } from './conversation-writes';
import { ChannelSendsRepository } from './outbound/channel-sends.repository';
import { CustomerViewService } from './customer-view.service';
import { ConversationsController } from './conversations.controller';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';
import { NotesController } from './notes.controller';
import { ConversationInbox } from './inbox/conversation-inbox';
import { InboxController } from './inbox/inbox.controller';
import { ConversationLabels } from './inbox/conversation-labels';
import { InboxRepository } from './inbox/inbox.repository';
import { SnoozeEndsWorker } from './inbox/snooze-ends.worker';
import { TakeOver } from './inbox/take-over';
import { SnoozesRepository } from './inbox/snoozes.repository';
import { AttachmentsController } from './messages/attachments.controller';
import { MediaAttachments } from './messages/media-attachments.service';
import { MessagePosting } from './messages/message-posting';
import { MessagePublisher } from './messages/message-publisher';
import { MessagesRepository } from './messages/messages.repository';
import { ReplyRequests } from './reply-requests.service';
import { ReportEventsRepository } from './reports/report-events.repository';
import { ReportsController } from './reports/reports.controller';
import { ConversationReportsRepository } from './reports/conversation-reports.repository';
import { ConversationReports } from './reports/conversation-reports.service';
import { OpenStreams } from './stream/open-streams';
import { StreamAccessGuard } from './stream/stream-access.guard';
import { StreamTicketsService } from './stream/stream-tickets.service';
import { StreamController } from './stream/stream.controller';
import { StreamService } from './stream/stream.service';

/**
 * Conversations, their messages and the staff stream. Replies are written into them from the
 * replies module above, which hears through ReplyRequests of each message waiting for one.
 */
@Module({
  imports: [AgentsModule, ApiKeysModule, WebhooksModule, OutboundModule, UsageModule],
  // The stream controller first: its `…/messages/stream` must win over `…/messages/:messageId`.
  controllers: [
    StreamController,
    ConversationsController,
    NotesController,
    ContactsController,
    InboxController,
    TeamQueueController,
    ReportsController,
    AttachmentsController,
  ],
  providers: [
    ConversationEvents,
    ConversationsRepository,
    ContactsRepository,
    ContactsService,
    ConversationWrites,
    ConversationInbox,
    ConversationLabels,
    InboxRepository,
    SnoozesRepository,
    TakeOver,
    SnoozeEndsWorker,
    MessagesRepository,
    ConversationsService,
    MessagePublisher,
    MessagePosting,
    ReplyRequests,
    ReportEventsRepository,
    ConversationReportsRepository,
    ConversationReports,
    StreamTicketsService,
    StreamService,
    OpenStreams,
    StreamAccessGuard,
    CustomerViewService,
    ChannelOutbox,
    ChannelSendsRepository,
    MediaAttachments,
  ],
  exports: [ConversationsService, ReplyRequests, CustomerViewService, ChannelOutbox],
})
export class ConversationsModule {}
