import { ApiProperty } from '@nestjs/swagger';
import { KnowledgeBaseEntity, KnowledgeBaseType } from '../entities/knowledge-base.entity';

export class KnowledgeBaseSummaryDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['text', 'url'] }) type: KnowledgeBaseType;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
}

export class KnowledgeBaseResponseDto extends KnowledgeBaseSummaryDto {
  @ApiProperty({ type: String, nullable: true }) url: string | null;
  @ApiProperty({ type: String, nullable: true }) content: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export function toKnowledgeBaseSummary(kb: KnowledgeBaseEntity): KnowledgeBaseSummaryDto {
  return { id: kb.id, type: kb.type, name: kb.name, description: kb.description };
}

export function toKnowledgeBaseResponse(kb: KnowledgeBaseEntity): KnowledgeBaseResponseDto {
  return {
    ...toKnowledgeBaseSummary(kb),
    url: kb.url,
    content: kb.content,
    created_at: kb.createdAt.toISOString(),
    updated_at: kb.updatedAt.toISOString(),
  };
}
