import { ApiProperty } from '@nestjs/swagger';
import {
  KnowledgeBaseEntity,
  KnowledgeBaseStatus,
  KnowledgeBaseSummary,
  KnowledgeBaseType,
} from '../entities/knowledge-base.entity';

export class KnowledgeBaseSummaryDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['text', 'url'] }) type: KnowledgeBaseType;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
}

export class KnowledgeBaseResponseDto extends KnowledgeBaseSummaryDto {
  @ApiProperty({ type: String, nullable: true }) url: string | null;
  @ApiProperty({ type: String, nullable: true }) content: string | null;
  @ApiProperty({
    enum: ['pending', 'ready', 'failed'],
    description: 'A url item is pending until its page is fetched; text items are ready at once',
  })
  status: KnowledgeBaseStatus;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the last fetch failed, in words a person can act on',
  })
  error: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'When the page was last fetched' })
  fetched_at: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export function toKnowledgeBaseSummary(kb: KnowledgeBaseSummary): KnowledgeBaseSummaryDto {
  return { id: kb.id, type: kb.type, name: kb.name, description: kb.description };
}

export function toKnowledgeBaseResponse(kb: KnowledgeBaseEntity): KnowledgeBaseResponseDto {
  return {
    ...toKnowledgeBaseSummary(kb),
    url: kb.url,
    content: kb.content,
    status: kb.status,
    error: kb.error,
    fetched_at: kb.fetchedAt?.toISOString() ?? null,
    created_at: kb.createdAt.toISOString(),
    updated_at: kb.updatedAt.toISOString(),
  };
}
