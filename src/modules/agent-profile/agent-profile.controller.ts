import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AgentId } from '@/modules/agents/agent-id.decorator';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { AgentProfileService } from './agent-profile.service';
import { AgentDetailResponseDto } from './dto/agent-detail-response.dto';

@ApiTags('agents')
@Controller('agents')
export class AgentProfileController {
  constructor(private readonly profiles: AgentProfileService) {}

  @Get(':agentId')
  @Endpoint({
    scope: 'agents:read',
    summary: 'Retrieve an agent with its knowledge bases, integrations and channels',
    message: 'Agent retrieved successfully',
    response: AgentDetailResponseDto,
  })
  getAgent(@TeamId() teamId: string, @AgentId() agentId: string): Promise<AgentDetailResponseDto> {
    return this.profiles.detail(teamId, agentId);
  }
}
