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

/**
 * The conversations that carry `label`, read from `conversation_labels`' index: the team, the
 * label, and the status and assignee its rows copy, so that the rows the index range holds are
 * (nearly) the list's; the page and its total then read only those conversations.
 */
function labelCondition(
  params: SqlParams,
  team: string,
  label: string,
  status: ConversationStatus | undefined,
  assignee: string | null,
): string {
  const copied = [`labelled.team_id = ${team}`, `labelled.label = ${params.add(label)}`];
  if (status !== undefined) {
    copied.push(`labelled.status = ${params.add(status)}`);
  }
  if (assignee) {
    copied.push(`labelled.assignee_id ${assignee}`);
  }
  return (
    'conversation.id IN (SELECT labelled.conversation_id FROM conversation_labels labelled ' +
    `WHERE ${copied.join(' AND ')})`
  );
}

/** The conversations of `scope` a query's filters keep (its status too, when it has one). */
export function listFilter(
  scope: ConversationScope,
  query: ConversationFiltersDto & { status?: ConversationStatus },
): ListFilter {
  const params = new SqlParams();
  const team = params.add(scope.teamId);
  const conditions = [`conversation.team_id = ${team}`];
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
  const assignee =
    query.assignee_id === undefined
      ? null
      : query.assignee_id === 'none'
        ? 'IS NULL'
        : `= ${params.add(query.assignee_id)}`;
  if (assignee) {
    conditions.push(`conversation.assignee_id ${assignee}`);
  }
  if (query.updated_after !== undefined) {
    conditions.push(`conversation.updated_at > ${params.add(new Date(query.updated_after))}`);
  }
  if (query.label !== undefined) {
    conditions.push(labelCondition(params, team, query.label, query.status, assignee));
  }
  return { where: conditions.join(' AND '), params: params.values };
}
