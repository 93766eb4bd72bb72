import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';

/**
 * The team's stored knowledge text, UTF-8 bytes, and the share of it item $2 holds. octet_length
 * reads the size each value is stored with, not the text itself (SQLite's record header,
 * PostgreSQL's TOAST header), so the sum stays cheap at the cap.
 */
const TEAM_TEXT_BYTES =
  'SELECT COALESCE(SUM(octet_length(kb.content)), 0) AS total, ' +
  'COALESCE(SUM(CASE WHEN kb.id = $2 THEN octet_length(kb.content) ELSE 0 END), 0) AS replaced ' +
  'FROM agents a JOIN knowledge_bases kb ON kb.agent_id = a.id ' +
  'WHERE a.team_id = $1 AND kb.team_id = $1';

/**
 * KNOWLEDGE_MAX_MB_PER_TEAM: the knowledge text a team may store, counting text items' content
 * and fetched pages' text. Workflow FAQs are not counted: they belong to workflows, whose own
 * input limits bound them.
 */
@Injectable()
export class KnowledgeQuota {
  private readonly maxBytes: number;

  constructor(
    private readonly db: Database,
    config: AppConfig,
  ) {
    this.maxBytes = config.knowledge.maxBytesPerTeam;
  }

  /**
   * Why `text` may not become item `itemId`'s text (null: a new item), or null when it may: a
   * write is refused when it adds text and leaves the team above its cap. Runs in the caller's
   * transaction and, on PostgreSQL, holds the team's row until it ends, so that two writes
   * cannot both pass the cap.
   */
  async refusal(
    teamId: string,
    itemId: string | null,
    text: string | null,
  ): Promise<string | null> {
    const bytes = text === null ? 0 : Buffer.byteLength(text, 'utf8');
    if (bytes === 0) {
      return null;
    }
    await this.db.lockRow('teams', teamId);
    const { rows } = await this.db.execute<{ total: number | string; replaced: number | string }>(
      TEAM_TEXT_BYTES,
      [teamId, itemId ?? ''],
    );
    const replaced = Number(rows[0]?.replaced ?? 0);
    const after = Number(rows[0]?.total ?? 0) - replaced + bytes;
    if (bytes <= replaced || after <= this.maxBytes) {
      return null;
    }
    return (
      `the team's knowledge text would pass its limit of ${this.maxBytes / 1024 / 1024} MB ` +
      '(KNOWLEDGE_MAX_MB_PER_TEAM)'
    );
  }

  /** As `refusal`, for a request: 403 `forbidden` naming the limit. */
  async assertRoom(teamId: string, itemId: string | null, text: string | null): Promise<void> {
    const refusal = await this.refusal(teamId, itemId, text);
    if (refusal) {
      throw Errors.forbidden(refusal[0].toUpperCase() + refusal.slice(1));
    }
  }
}
