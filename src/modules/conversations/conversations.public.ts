// The conversations module's public surface beside its services: the messages others write.
export { actionLine, aiReply, serviceNotice } from './messages/message-draft';
export type { MessageDraft } from './messages/message-draft';
export type { ConversationChanges } from './conversations.repository';
export type { ChannelContent } from './messages/channel-content';
