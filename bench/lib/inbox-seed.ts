import { randomBytes } from 'node:crypto';
import { newId } from '@/common/ids';
import { ConsoleDataSource, ENTITY_FILES } from '@/database/console-data-source';
import { Database } from '@/database/database.service';
import { dataSourceOptions } from '@/database/data-source-options';
import { SqlParam } from '@/database/sql/params';
import { ConversationLabelEntity } from '@/modules/conversations/entities/conversation-label.entity';
import { labelRows } from '@/modules/conversations/inbox/conversation-labels';
import {
  CONVERSATION_STATUSES,
  ConversationEntity,
  PRIORITIES,
} from '@/modules/conversations/entities/conversation.entity';

/** Rows per INSERT (about 30 columns each: under both engines' limits on bound values). */
const ROWS_PER_STATEMENT = 500;
/** Rows per transaction. */
const ROWS_PER_TRANSACTION = 10_000;
const DAY_MS = 86_400_000;

export const INBOX_ASSIGNEES = Array.from(
  { length: 20 },
  (_, i) => `operator-${String(i + 1).padStart(2, '0')}`,
);
export const INBOX_LABELS = [
  'vip',
  'billing',
  'refund',
  'delivery',
  'complaint',
  'wholesale',
  'returns',
  'lead',
  'spam',
  'follow-up',
  'bug',
  'feedback',
];
const CHANNELS = ['webchat', 'whatsapp', 'instagram'] as const;

/** A small seeded generator (mulberry32): the same rows on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function weighted<T>(next: () => number, choices: readonly (readonly [T, number])[]): T {
  let roll = next() * choices.reduce((total, [, weight]) => total + weight, 0);
  for (const [value, weight] of choices) {
    roll -= weight;
    if (roll < 0) {
      return value;
    }
  }
  return choices[choices.length - 1][0];
}

export interface InboxTeam {
  teamId: string;
  agentIds: string[];
  conversations: number;
}

/**
 * One conversation of a team's inbox: statuses, assignees, labels, priorities and flags spread
 * roughly as a busy support desk has them (most resolved, a third unassigned, a tenth waiting
 * for a person).
 */
function conversation(team: InboxTeam, index: number, next: () => number, now: number) {
  const status = weighted(next, [
    [CONVERSATION_STATUSES[0], 25], // open
    [CONVERSATION_STATUSES[1], 10], // pending
    [CONVERSATION_STATUSES[2], 5], // snoozed
    [CONVERSATION_STATUSES[3], 60], // resolved
  ]);
  const assignee =
    next() < 0.3 ? null : INBOX_ASSIGNEES[Math.floor(next() * INBOX_ASSIGNEES.length)];
  const labels = [
    ...new Set(
      Array.from(
        { length: Math.floor(next() * 3) },
        () => INBOX_LABELS[Math.floor(next() * INBOX_LABELS.length)],
      ),
    ),
  ];
  const lastMessageAt = new Date(now - Math.floor(next() * 90 * DAY_MS));
  const createdAt = new Date(lastMessageAt.getTime() - Math.floor(next() * 7 * DAY_MS));
  const row: ConversationEntity = {
    id: newId(),
    teamId: team.teamId,
    agentId: team.agentIds[index % team.agentIds.length],
    createdAt,
    updatedAt: lastMessageAt,
    channelType: CHANNELS[index % CHANNELS.length],
    channelId: null,
    channelUserId: `inbox-${index}`,
    channelUserUsername: `Customer ${index}`,
    isTestChannel: false,
    isAiChatPaused: next() < 0.1,
    needsAttention: next() < 0.1,
    lastMessageAt,
    lastSeen: lastMessageAt,
    lastMessagePreview: 'Hello, where is my order? It was due yesterday.',
    lastSeq: 1 + Math.floor(next() * 40),
    flowState: null,
    contactId: null,
    context: null,
    status,
    // Far ahead: the snooze job must find nothing to wake during the load.
    snoozedUntil: status === 'snoozed' ? new Date(now + 30 * DAY_MS) : null,
    assigneeId: assignee,
    assigneeName: assignee && `Operator ${assignee.slice(-2)}`,
    labels,
    priority: weighted(next, [
      [PRIORITIES[0], 20],
      [PRIORITIES[1], 60],
      [PRIORITIES[2], 15],
      [PRIORITIES[3], 5],
    ]),
    handoffReason: null,
    handoffSource: null,
    handoffAt: null,
    snoozeLeaseUntil: null,
    snoozeLeaseToken: null,
    pauseAnnounced: false,
  };
  return row;
}

/** The app's database, opened from the suite's process beside the running app. */
export async function openDatabase(
  databaseUrl: string,
): Promise<{ db: Database; close: () => Promise<void> }> {
  const dataSource = await new ConsoleDataSource({
    ...dataSourceOptions(databaseUrl, randomBytes(32), 2),
    entities: [ENTITY_FILES],
  }).initialize();
  return { db: new Database(dataSource), close: () => dataSource.destroy() };
}

/**
 * Writes the teams' conversations straight into the app's database (the app keeps running: SQLite
 * in WAL mode takes a second connection; on PostgreSQL it is one more client) with the app's own
 * `Database.insert`, a few hundred rows per statement, their label rows with them; then ANALYZE,
 * as the engines' maintenance would after such a load, so that the planner sees the tables as
 * they are.
 */
export async function seedInbox(db: Database, teams: InboxTeam[]): Promise<void> {
  const now = Date.now();
  for (const [t, team] of teams.entries()) {
    const next = random(t + 1);
    for (let start = 0; start < team.conversations; start += ROWS_PER_TRANSACTION) {
      const end = Math.min(team.conversations, start + ROWS_PER_TRANSACTION);
      await db.transaction(async () => {
        for (let from = start; from < end; from += ROWS_PER_STATEMENT) {
          const rows = [];
          for (let i = from; i < Math.min(end, from + ROWS_PER_STATEMENT); i++) {
            rows.push(conversation(team, i, next, now));
          }
          await db.insert(ConversationEntity, rows);
          // Their label rows, as the app writes them with the labels (5 columns each).
          const labels = rows.flatMap(labelRows);
          for (let at = 0; at < labels.length; at += ROWS_PER_STATEMENT) {
            await db.insert(ConversationLabelEntity, labels.slice(at, at + ROWS_PER_STATEMENT));
          }
        }
      });
    }
  }
  await db.write(() => db.execute('ANALYZE'));
}

/** The plan the engine runs `sql` with (EXPLAIN QUERY PLAN on SQLite, EXPLAIN ANALYZE on PostgreSQL). */
export async function queryPlan(
  db: Database,
  sql: string,
  params: readonly SqlParam[],
): Promise<string[]> {
  const postgres = db.dialect.engine === 'postgres';
  const { rows } = await db.execute(
    `${postgres ? 'EXPLAIN ANALYZE' : 'EXPLAIN QUERY PLAN'} ${sql}`,
    params,
  );
  return rows.map((row) => String(postgres ? row['QUERY PLAN'] : row.detail));
}
