import { Dialect } from '@/database/sql/dialect';
import { ListFilter, ListTable } from '@/database/sql/list-pages';
import { SqlParams } from '@/database/sql/params';
import { ConversationFiltersDto } from './dto/conversation-filters.dto';
import { ConversationStatus, PRIORITIES } from './entities/conversation.entity';

const PRIORITY_RANK =
  'CASE conversation.priority ' +
  PRIORITIES.map((priority, rank) => `WHEN '${priority}' THEN ${rank}`).join(' ') +
  ' END';

/** How conversations are listed: searched, sorted and filtered. */
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
    priority: PRIORITY_RANK,
  },
  defaultSort: '-last_message_at',
  tieBreaker: 'conversation.id',
};

/** Which agents' conversations a read covers: one agent, a key's agents, or the whole team (null). */
export interface ConversationScope {
  teamId: string;
  agentIds: readonly string[] | null;
}

/** The conversations of `scope` a query's filters keep (its status too, when it has one). */
export function listFilter(
  dialect: Dialect,
  scope: ConversationScope,
  query: ConversationFiltersDto & { status?: ConversationStatus },
): ListFilter {
  const params = new SqlParams();
  const conditions = [`conversation.team_id = ${params.add(scope.teamId)}`];
  if (scope.agentIds) {
    conditions.push(
      scope.agentIds.length > 0
        ? `conversation.agent_id IN (${params.list(scope.agentIds)})`
        : '1 = 0',
    );
  }
  const equal: Record<string, string | boolean | undefined> = {
    agent_id: query.agent_id?.toLowerCase(),
    status: query.status,
    priority: query.priority,
    is_test_channel: query.is_test_channel,
    is_ai_chat_paused: query.is_ai_chat_paused,
    needs_attention: query.needs_attention,
  };
  if (query.channel) {
    conditions.push(
      `conversation.channel_type = ${params.add(query.channel.replace(/^test_/, ''))}`,
      `conversation.is_test_channel = ${params.add(query.channel.startsWith('test_'))}`,
    );
  }
  for (const [column, value] of Object.entries(equal)) {
    if (value !== undefined) {
      conditions.push(`conversation.${column} = ${params.add(value)}`);
    }
  }
  if (query.assignee_id === 'none') {
    conditions.push('conversation.assignee_id IS NULL');
  } else if (query.assignee_id !== undefined) {
    conditions.push(`conversation.assignee_id = ${params.add(query.assignee_id)}`);
  }
  if (query.updated_after !== undefined) {
    conditions.push(`conversation.updated_at > ${params.add(new Date(query.updated_after))}`);
  }
  // Last, after the conditions an index serves: no index serves the labels, read on each row
  // left. Their stored text holds the label as JSON writes it, so a substring test spares most
  // of those rows the parse of their array; the element test decides.
  if (query.label !== undefined) {
    const needle = params.add(JSON.stringify(query.label));
    const label = params.add(query.label);
    conditions.push(
      dialect.contains('conversation.labels', needle),
      dialect.anyJsonElement('conversation.labels', (e) => `${e} = ${label}`),
    );
  }
  return { where: conditions.join(' AND '), params: params.values };
}
