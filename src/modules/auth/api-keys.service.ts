import { Inject, Injectable, Logger } from '@nestjs/common';
import { newId } from '@/common/ids';
import { CLUSTER_EVENTS, ClusterEvents } from '@/common/state/ports';
import { Database } from '@/database/database.service';
import { SqlParams } from '@/database/sql/params';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-secret';
import { ApiKeyEntity } from './entities/api-key.entity';
import { Scope } from './scopes';

/** What authenticating a request needs of a key. */
export type ApiKeyCredential = Pick<
  ApiKeyEntity,
  'id' | 'teamId' | 'scopes' | 'agentIds' | 'expiresAt' | 'revokedAt'
>;

const CREDENTIAL_BY_HASH =
  'SELECT id, team_id, scopes, agent_ids, expires_at, revoked_at FROM api_keys WHERE key_hash = $1';

export interface CreatedApiKey {
  record: ApiKeyEntity;
  /** The key itself: shown once, never stored. */
  key: string;
}

const COUNT_ALL = 'SELECT count(*) AS total FROM api_keys';

const LAST_USED_RESOLUTION_MS = 60_000;
export const KEY_REVOKED = 'key-revoked';
/** Ids per query when many keys are checked at once (SQLite caps the parameters of a query). */
const ID_LIST_CHUNK = 500;

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly db: Database,
    @Inject(CLUSTER_EVENTS) private readonly events: ClusterEvents,
  ) {}

  async create(
    teamId: string,
    scopes: Scope[],
    expiresAt: Date | null = null,
    key = generateApiKey(),
    agentIds: string[] | null = null,
  ): Promise<CreatedApiKey> {
    const record: ApiKeyEntity = {
      id: newId(),
      teamId,
      keyHash: hashApiKey(key),
      keyPrefix: displayPrefix(key),
      scopes,
      agentIds,
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
      createdAt: new Date(),
    };
    await this.db.insert(ApiKeyEntity, [record]);
    return { record, key };
  }

  /**
   * A key that reaches only `agentIds` of its team; instead, the ids of the list that are no agent
   * of the team, when there are some.
   */
  async createForAgents(
    teamId: string,
    scopes: Scope[],
    agentIds: string[],
    expiresAt: Date | null = null,
  ): Promise<CreatedApiKey | { notAgents: string[] }> {
    const owned = await this.agentsOfTeam(teamId, agentIds);
    const notAgents = agentIds.filter((id) => !owned.has(id));
    if (agentIds.length === 0 || notAgents.length > 0) {
      return { notAgents };
    }
    return this.create(teamId, scopes, expiresAt, undefined, agentIds);
  }

  /** Read by table name: keys sit below the agents module, which they must not import. */
  private async agentsOfTeam(teamId: string, ids: string[]): Promise<Set<string>> {
    const owned = new Set<string>();
    for (let i = 0; i < ids.length; i += ID_LIST_CHUNK) {
      const params = new SqlParams();
      const team = params.add(teamId);
      const list = params.list(ids.slice(i, i + ID_LIST_CHUNK));
      const { rows } = await this.db.execute<{ id: string }>(
        `SELECT id FROM agents WHERE team_id = ${team} AND id IN (${list})`,
        params.values,
      );
      rows.forEach((row) => owned.add(row.id));
    }
    return owned;
  }

  listForTeam(teamId: string): Promise<ApiKeyEntity[]> {
    return this.db.find(ApiKeyEntity, { teamId }, { orderBy: { createdAt: 'ASC' } });
  }

  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.db.findOne(ApiKeyEntity, { keyHash });
  }

  /** The key every authenticated request looks up, revoked and expired ones included. */
  findCredential(keyHash: string): Promise<ApiKeyCredential | null> {
    return this.db.entity(ApiKeyEntity, CREDENTIAL_BY_HASH, [keyHash]);
  }

  /** Whether the key exists, is not revoked and has not expired. */
  async isActive(id: string): Promise<boolean> {
    const key = await this.db.findOne(ApiKeyEntity, { id });
    return Boolean(
      key && !key.revokedAt && (!key.expiresAt || key.expiresAt.getTime() > Date.now()),
    );
  }

  /** Which of `ids` are keys that still work (not revoked, not expired). */
  async activeAmong(ids: string[]): Promise<Set<string>> {
    const active = new Set<string>();
    for (let i = 0; i < ids.length; i += ID_LIST_CHUNK) {
      const keys = await this.db.find(ApiKeyEntity, {
        id: ids.slice(i, i + ID_LIST_CHUNK),
        revokedAt: null,
      });
      keys
        .filter((key) => !key.expiresAt || key.expiresAt.getTime() > Date.now())
        .forEach((key) => active.add(key.id));
    }
    return active;
  }

  async count(): Promise<number> {
    const { rows } = await this.db.execute<{ total: number | string }>(COUNT_ALL);
    // PostgreSQL's count is a bigint, which its driver hands over as a string.
    return Number(rows[0].total);
  }

  /**
   * Revokes the key, and tells every instance to drop it from its cache at once; false when no
   * such active key exists.
   */
  async revoke(id: string): Promise<boolean> {
    const revoked = await this.db.update(
      ApiKeyEntity,
      { id, revokedAt: null },
      { revokedAt: new Date() },
    );
    if (revoked === 0) {
      return false;
    }
    await this.events.emit(KEY_REVOKED, id).catch((error: unknown) => {
      this.logger.warn(
        { err: error, keyId: id },
        'Could not announce the revocation; caches expire it soon',
      );
    });
    return true;
  }

  /**
   * A new key of the same team and scopes, expiring at `expiresAt`; the old key keeps working
   * until `graceUntil` (or its own earlier expiry), so that its users can switch over. Null when
   * `id` is no working key.
   */
  async rotate(
    id: string,
    graceUntil: Date,
    expiresAt: Date | null = null,
  ): Promise<{ replaced: ApiKeyEntity; created: CreatedApiKey } | null> {
    return this.db.transaction(async () => {
      await this.db.lockRow('api_keys', id);
      const old = await this.db.findOne(ApiKeyEntity, { id, revokedAt: null });
      if (!old || (old.expiresAt && old.expiresAt.getTime() <= Date.now())) {
        return null;
      }
      if (!old.expiresAt || old.expiresAt > graceUntil) {
        old.expiresAt = graceUntil;
        await this.db.update(ApiKeyEntity, { id }, { expiresAt: graceUntil });
      }
      const created = await this.create(
        old.teamId,
        old.scopes as Scope[],
        expiresAt,
        undefined,
        old.agentIds,
      );
      return { replaced: old, created };
    });
  }

  /**
   * Makes `key` a working key of `teamId` with `scopes`, whatever state it was left in, unless it
   * was revoked: a revocation is never undone. False when the key stays revoked.
   */
  async ensureKey(teamId: string, key: string, scopes: Scope[]): Promise<boolean> {
    const keyHash = hashApiKey(key);
    const existing = await this.findByHash(keyHash);
    if (!existing) {
      await this.create(teamId, scopes, null, key);
      return true;
    }
    if (existing.revokedAt) {
      return false;
    }
    await this.db.update(
      ApiKeyEntity,
      { id: existing.id },
      {
        teamId,
        scopes,
        agentIds: null,
        expiresAt: null,
      },
    );
    return true;
  }

  /** Records use at most once a minute per key, off the request path. */
  touch(keyId: string, now = Date.now()): void {
    const previous = this.lastTouched.get(keyId) ?? 0;
    if (now - previous < LAST_USED_RESOLUTION_MS) {
      return;
    }
    this.lastTouched.set(keyId, now);
    this.db
      .detached(() => this.db.update(ApiKeyEntity, { id: keyId }, { lastUsedAt: new Date(now) }))
      .catch((error: unknown) =>
        this.logger.warn({ err: error, keyId }, 'Could not record key use'),
      );
  }
}
