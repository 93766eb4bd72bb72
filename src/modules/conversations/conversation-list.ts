import { ListFilter, ListTable } from '@/database/sql/list-pages';
import { SqlParams } from '@/database/sql/params';
import { ConversationListQueryDto } from './dto/conversation.dto';

/** How an agent's conversations are listed: searched, sorted and filtered. */
export const CONVERSATION_LIST: ListTable = {
  from: 'conversations conversation',
  columns: 'conversation.*',
  searchColumns: [
    'conversation.channel_user_id',
    'conversation.channel_user_username',
    'conversation.last_message_preview',
  ],
  sortColumns: {
    created_at: 'conversation.created_at',
    updated_at: 'conversation.updated_at',
    last_message_at: 'conversation.last_message_at',
  },
  defaultSort: '-last_message_at',
  tieBreaker: 'conversation.id',
};

/** The agent's conversations a list query's filters keep. */
export function listFilter(
  teamId: string,
  agentId: string,
  query: ConversationListQueryDto,
): ListFilter {
  const params = new SqlParams();
  const conditions = [
    `conversation.team_id = ${params.add(teamId)}`,
    `conversation.agent_id = ${params.add(agentId)}`,
  ];
  if (query.channel) {
    conditions.push(
      `conversation.channel_type = ${params.add(query.channel.replace(/^test_/, ''))}`,
      `conversation.is_test_channel = ${params.add(query.channel.startsWith('test_'))}`,
    );
  }
  const flags = {
    is_test_channel: query.is_test_channel,
    is_ai_chat_paused: query.is_ai_chat_paused,
    needs_attention: query.needs_attention,
  };
  for (const [column, value] of Object.entries(flags)) {
    if (value !== undefined) {
      conditions.push(`conversation.${column} = ${params.add(value)}`);
    }
  }
  return { where: conditions.join(' AND '), params: params.values };
}
