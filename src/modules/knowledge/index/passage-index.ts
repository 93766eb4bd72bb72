import { SqlParam, SqlParams } from '@/database/sql/params';
import { PassageSource } from '../entities/knowledge-base.entity';
import { ownerToken, SearchKey } from '../search/search-terms';

/** Whose passages a search reads: an agent's items (within its team) and a workflow's FAQ. */
export interface PassageOwners {
  teamId: string;
  agentId: string;
  workflowId: string | null;
}

export interface CandidatePassage {
  source: PassageSource;
  title: string;
  content: string;
  /** Search-only words: the text's hyphenated words and phrasal verbs written as one. */
  terms: string;
}

/** See `PassagesRepository.candidates`. */
export type CandidateMode = 'ranked' | 'all' | 'titles' | 'first';

export interface KeyFrequencies {
  /** Passages of the owners. */
  total: number;
  /** For each key, in order: how many of those passages hold it. */
  counts: number[];
}

/** A passage as it is indexed: `ownerKey` names its owner in the index, `terms` its compounds. */
export interface IndexedPassage {
  id: string;
  teamId: string | null;
  agentId: string | null;
  knowledgeBaseId: string | null;
  workflowId: string | null;
  source: PassageSource;
  position: number;
  ownerKey: string;
  title: string;
  content: string;
  terms: string;
}

/** Whose vocabulary a word joins: an agent's or a workflow's. */
export interface TermOwner {
  ownerKey: string;
  agentId: string | null;
  workflowId: string | null;
}

/**
 * The full-text index of the passages, which each engine keeps its own way (SQLite: the FTS5
 * table `knowledge_fts`, PostgreSQL: the `tsvector` column `search`). Both find the owners'
 * passages through an owner token in the index, so a search touches only them. One adapter per
 * engine, chosen once (`passageIndexProvider`); everything else about passages is plain SQL.
 */
export abstract class PassageIndex {
  /** Writes a passage and its index entry (in the caller's transaction). */
  abstract insert(passage: IndexedPassage): Promise<void>;

  /** Adds `terms` to the owner's vocabulary, skipping those it has (in the caller's transaction). */
  abstract addTerms(owner: TermOwner, terms: string[]): Promise<void>;

  /** The owners' passages holding `keys`, as `PassagesRepository.candidates` describes. */
  abstract candidates(
    owners: PassageOwners,
    keys: SearchKey[],
    limit: number,
    mode: CandidateMode,
  ): Promise<CandidatePassage[]>;

  /** An expression: how many of the owners' passages hold `key`, counted up to `cap`. */
  abstract holding(params: SqlParams, owners: PassageOwners, key: SearchKey, cap: number): string;
}

/** The owners' index tokens; only the workflow's for titles (only FAQ passages have one). */
export function ownerTokens(owners: PassageOwners, mode: CandidateMode = 'ranked'): string[] {
  return [mode === 'titles' ? null : owners.agentId, owners.workflowId]
    .filter((id): id is string => Boolean(id))
    .map(ownerToken);
}

/** The condition on passages `p` that they are the owners'. */
export function ownedBy(params: SqlParams, owners: PassageOwners): string {
  return (
    `((p.team_id = ${params.add(owners.teamId)} AND p.agent_id = ${params.add(owners.agentId)}) ` +
    `OR p.workflow_id = ${params.add(owners.workflowId)})`
  );
}

/** The columns of a passage's row both engines store, and the values of `passage` for them. */
export const PASSAGE_COLUMNS =
  'id, team_id, agent_id, knowledge_base_id, workflow_id, source, position, owner_key, title, ' +
  'content, terms';

export function passageValues(passage: IndexedPassage): SqlParam[] {
  return [
    passage.id,
    passage.teamId,
    passage.agentId,
    passage.knowledgeBaseId,
    passage.workflowId,
    passage.source,
    passage.position,
    passage.ownerKey,
    passage.title,
    passage.content,
    passage.terms,
  ];
}
