import { ApiProperty } from '@nestjs/swagger';
import { AgentResponseDto } from '@/modules/agents/dto/agent-response.dto';
import { ChannelResponseDto } from '@/modules/agents/dto/channel-response.dto';
import { IntegrationSummaryDto } from '@/modules/integrations/dto/integration-response.dto';
import { KnowledgeBaseSummaryDto } from '@/modules/knowledge/dto/knowledge-base-response.dto';

export class AgentDetailResponseDto extends AgentResponseDto {
  @ApiProperty({ type: [KnowledgeBaseSummaryDto] }) knowledge_bases: KnowledgeBaseSummaryDto[];
  @ApiProperty({ type: [IntegrationSummaryDto] }) integrations: IntegrationSummaryDto[];
  @ApiProperty({ type: [ChannelResponseDto] }) channels: ChannelResponseDto[];
}
