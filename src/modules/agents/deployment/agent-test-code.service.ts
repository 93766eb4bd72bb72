import { Injectable } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { agentTestCode, AgentTestCodeResponseDto } from '../dto/agent-test-code-response.dto';

/** The test code of an agent, with the test channels this installation is configured with. */
@Injectable()
export class AgentTestCodeService {
  constructor(private readonly config: AppConfig) {}

  describe(code: string): AgentTestCodeResponseDto {
    return agentTestCode(code, this.config.agents.testChannels);
  }
}
