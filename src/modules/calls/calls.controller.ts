import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Errors } from '@/common/http/api-error';
import { Endpoint } from '@/modules/auth/endpoint.decorator';

const NOT_ACTIVE = 'Call history is not active yet';

/** docs/api.md §6: every call endpoint answers 501 once the caller is authenticated and scoped. */
@ApiTags('calls')
@Controller()
export class CallsController {
  @Get('calls')
  @Endpoint({
    scope: 'calls:read',
    summary: "List the team's calls (not active yet)",
    notImplemented: true,
  })
  listCalls(): never {
    throw Errors.notImplemented(NOT_ACTIVE);
  }

  @Get('agents/:agentId/calls')
  @Endpoint({
    scope: 'calls:read',
    summary: "List an agent's calls (not active yet)",
    notImplemented: true,
  })
  listAgentCalls(@Param('agentId') _agentId: string): never {
    throw Errors.notImplemented(NOT_ACTIVE);
  }

  @Post('agents/:agentId/calls')
  @Endpoint({
    scope: 'calls:write',
    summary: 'Place a call from an agent (not active yet)',
    notImplemented: true,
  })
  createAgentCall(@Param('agentId') _agentId: string): never {
    throw Errors.notImplemented(NOT_ACTIVE);
  }

  @Get('agents/:agentId/calls/:callId')
  @Endpoint({
    scope: 'calls:read',
    summary: 'Retrieve a call of an agent (not active yet)',
    notImplemented: true,
  })
  getAgentCall(@Param('agentId') _agentId: string, @Param('callId') _callId: string): never {
    throw Errors.notImplemented(NOT_ACTIVE);
  }
}
