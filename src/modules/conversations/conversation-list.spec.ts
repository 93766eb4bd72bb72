import {
  CONVERSATION_LIST,
  LABELLED_CONVERSATION_LIST,
  listFilter,
  listRead,
} from './conversation-list';

const team = { teamId: 'team-1', agentIds: null };

describe('listRead', () => {
  it('reads a list without a label from the conversations, as listFilter filters it', () => {
    const read = listRead(team, { status: 'open', assignee_id: 'none' });
    expect(read.table).toBe(CONVERSATION_LIST);
    expect(read.filter).toEqual(listFilter(team, { status: 'open', assignee_id: 'none' }));
  });

  it('reads a label from the label rows, their copies standing in for team, status and assignee', () => {
    const read = listRead(team, { label: 'vip', status: 'open', assignee_id: 'none' });
    expect(read.table).toBe(LABELLED_CONVERSATION_LIST);
    expect(read.filter.where).toBe(
      'labelled.team_id = $1 AND labelled.label = $2 AND labelled.status = $3 AND ' +
        'labelled.assignee_id IS NULL',
    );
    expect(read.filter.params).toEqual(['team-1', 'vip', 'open']);
  });

  it('keeps the conditions a label row does not copy on the conversation', () => {
    const read = listRead(
      { teamId: 'team-1', agentIds: ['agent-1'] },
      { label: 'vip', assignee_id: 'op-1', priority: 'high' },
    );
    expect(read.filter.where).toBe(
      'labelled.team_id = $1 AND labelled.label = $2 AND labelled.assignee_id = $3 AND ' +
        'conversation.agent_id IN ($4) AND conversation.priority = $5',
    );
    expect(read.filter.params).toEqual(['team-1', 'vip', 'op-1', 'agent-1', 'high']);
  });

  it('sorts the label rows by their copy of the last message time, ties by conversation', () => {
    expect(LABELLED_CONVERSATION_LIST.sortColumns.last_message_at).toBe('labelled.last_message_at');
    expect(LABELLED_CONVERSATION_LIST.tieBreaker).toBe('labelled.conversation_id');
  });
});
