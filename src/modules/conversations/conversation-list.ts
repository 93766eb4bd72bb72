import { ListFilter, ListTable } from '@/database/sql/list-pages';
import { SqlParams } from '@/database/sql/params';
import { ConversationCountsDto, ConversationFiltersDto } from './dto/conversation-filters.dto';
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
 * The list of the conversations that carry a label, read from `conversation_labels` (the LEFT
 * JOIN lets a total that needs nothing else of the conversation come from the index alone), in
 * the label row's copy of `last_message_at`, so that a page in the default order is the first
 * rows of the queue index's range.
 */
export const LABELLED_CONVERSATION_LIST: ListTable = {
  ...CONVERSATION_LIST,
  from:
    'conversation_labels labelled ' +
    'LEFT JOIN conversations conversation ON conversation.id = labelled.conversation_id',
  sortColumns: { ...CONVERSATION_LIST.sortColumns, last_message_at: 'labelled.last_message_at' },
  tieBreaker: 'labelled.conversation_id',
};

type ListQuery = ConversationFiltersDto & { status?: ConversationStatus };

/** A list read: the table it is read from, and the filter on it. */
export interface ConversationListRead {
  table: ListTable;
  filter: ListFilter;
}

/** The condition of `assignee_id` the query asks for, if any (`none`: unassigned). */
function assigneeCondition(params: SqlParams, query: ListQuery): string | null {
  if (query.assignee_id === undefined) {
    return null;
  }
  return query.assignee_id === 'none' ? 'IS NULL' : `= ${params.add(query.assignee_id)}`;
}

/**
 * The conditions of the query on the conversation's own columns; `fromLabelRows` leaves out the
 * team, status and assignee, which the label rows read hold too.
 */
function conversationConditions(
  params: SqlParams,
  scope: ConversationScope,
  query: ListQuery,
  fromLabelRows: boolean,
): string[] {
  const conditions = fromLabelRows ? [] : [`conversation.team_id = ${params.add(scope.teamId)}`];
  if (scope.agentIds) {
    conditions.push(
      scope.agentIds.length > 0
        ? `conversation.agent_id IN (${params.list(scope.agentIds)})`
        : '1 = 0',
    );
  }
  const equal: Record<string, string | boolean | undefined> = {
    agent_id: query.agent_id?.toLowerCase(),
    status: fromLabelRows ? undefined : query.status,
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
  if (!fromLabelRows) {
    const assignee = assigneeCondition(params, query);
    if (assignee) {
      conditions.push(`conversation.assignee_id ${assignee}`);
    }
  }
  if (query.updated_after !== undefined) {
    conditions.push(`conversation.updated_at > ${params.add(new Date(query.updated_after))}`);
  }
  return conditions;
}

/** The label row's conditions: the team, the label, and the status and assignee it copies. */
function labelConditions(
  params: SqlParams,
  team: string,
  label: string,
  query: ListQuery,
): string[] {
  const conditions = [`labelled.team_id = ${team}`, `labelled.label = ${params.add(label)}`];
  if (query.status !== undefined) {
    conditions.push(`labelled.status = ${params.add(query.status)}`);
  }
  const assignee = assigneeCondition(params, query);
  if (assignee) {
    conditions.push(`labelled.assignee_id ${assignee}`);
  }
  return conditions;
}

/**
 * The conversations of `scope` a query's filters keep (its status too, when it has one), on the
 * conversations table (a label as a subquery of the label rows).
 */
export function listFilter(scope: ConversationScope, query: ListQuery): ListFilter {
  const params = new SqlParams();
  const conditions = conversationConditions(params, scope, query, false);
  if (query.label !== undefined) {
    const team = params.add(scope.teamId);
    const labelled = labelConditions(params, team, query.label, query);
    conditions.push(
      'conversation.id IN (SELECT labelled.conversation_id FROM conversation_labels labelled ' +
        `WHERE ${labelled.join(' AND ')})`,
    );
  }
  return { where: conditions.join(' AND '), params: params.values };
}

/** How a list page is read: from the label rows when it filters by label, else as listFilter. */
export function listRead(scope: ConversationScope, query: ListQuery): ConversationListRead {
  if (query.label === undefined) {
    return { table: CONVERSATION_LIST, filter: listFilter(scope, query) };
  }
  const params = new SqlParams();
  const team = params.add(scope.teamId);
  const conditions = [
    ...labelConditions(params, team, query.label, query),
    ...conversationConditions(params, scope, query, true),
  ];
  return {
    table: LABELLED_CONVERSATION_LIST,
    filter: { where: conditions.join(' AND '), params: params.values },
  };
}

/** Each count's condition, given the placeholder bound to boolean true. */
function countConditions(truth: string): Record<keyof ConversationCountsDto, string> {
  return {
    open: "conversation.status = 'open'",
    pending: "conversation.status = 'pending'",
    snoozed: "conversation.status = 'snoozed'",
    resolved: "conversation.status = 'resolved'",
    needs_attention: `conversation.needs_attention = ${truth}`,
    unassigned: 'conversation.assignee_id IS NULL',
  };
}

/**
 * How the team queue's counts are read: each count a sum over the conversations the filters
 * keep, in one statement, and how its row is read.
 */
export function countsRead(scope: ConversationScope, filters: ConversationFiltersDto) {
  const { where, params } = listFilter(scope, filters);
  const conditions = Object.entries(countConditions(`$${params.length + 1}`));
  const columns = conditions.map(
    ([name, condition]) => `sum(CASE WHEN ${condition} THEN 1 ELSE 0 END) AS ${name}`,
  );
  return {
    sql: `SELECT ${columns.join(', ')} FROM ${CONVERSATION_LIST.from} WHERE ${where}`,
    params: [...params, true],
    counts: (row: Record<string, unknown> | undefined): ConversationCountsDto =>
      Object.fromEntries(
        conditions.map(([name]) => [name, Number(row?.[name] ?? 0)]),
      ) as unknown as ConversationCountsDto,
  };
}
