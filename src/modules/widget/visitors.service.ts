import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import type { AgentChannelEntity } from '@/modules/agents/entities/agent-channel.entity';
import { WidgetVisitorEntity } from './entities/widget-visitor.entity';

const TOKEN_FORMAT = /^vt_[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface Session {
  token: string;
  visitor: WidgetVisitorEntity;
}

/**
 * A web chat's visitors: each a browser holding an opaque token (stored by hash) that names it in
 * this channel only. The token is the visitor's only credential: it reaches its own conversation.
 */
@Injectable()
export class VisitorsService {
  constructor(private readonly db: Database) {}

  /** The visitor `token` names in this channel (seen again now), or a new visitor and token. */
  async startSession(channel: AgentChannelEntity, token: string | undefined): Promise<Session> {
    const known = token ? await this.find(channel, token) : null;
    const now = new Date();
    if (known && token) {
      await this.db.update(WidgetVisitorEntity, { id: known.id }, { lastSeenAt: now });
      return { token, visitor: { ...known, lastSeenAt: now } };
    }
    const fresh = `vt_${randomBytes(32).toString('base64url')}`;
    const visitor: WidgetVisitorEntity = {
      id: newId(),
      teamId: channel.teamId,
      agentId: channel.agentId,
      channelId: channel.id,
      tokenHash: hashToken(fresh),
      createdAt: now,
      updatedAt: now,
      lastSeenAt: now,
    };
    await this.db.insert(WidgetVisitorEntity, [visitor]);
    return { token: fresh, visitor };
  }

  /** The visitor `token` names in this channel; 401 otherwise. */
  async require(channel: AgentChannelEntity, token: string): Promise<WidgetVisitorEntity> {
    const visitor = await this.find(channel, token);
    if (!visitor) {
      throw Errors.unauthorized('Unknown visitor_token for this web chat: POST /sessions first');
    }
    return visitor;
  }

  /** The visitor a stream ticket was issued to, or null once it is gone. */
  findById(teamId: string, id: string): Promise<WidgetVisitorEntity | null> {
    return this.db.findOne(WidgetVisitorEntity, { teamId, id });
  }

  private find(channel: AgentChannelEntity, token: string): Promise<WidgetVisitorEntity | null> {
    if (!TOKEN_FORMAT.test(token)) {
      return Promise.resolve(null);
    }
    return this.db.findOne(WidgetVisitorEntity, {
      tokenHash: hashToken(token),
      channelId: channel.id,
      teamId: channel.teamId,
    });
  }
}
