import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Errors } from '@/common/http/api-error';
import { ApiErrorResponse, ApiErrors } from '@/common/http/api-docs.decorators';
import { ApiIdempotencyKey } from '@/common/idempotency/idempotency-key.decorator';
import { RequireScopes } from '@/modules/auth/require-scopes.decorator';

const NOT_ACTIVE = 'Call history is not active yet';

/** API.md §6: every call endpoint answers 501 once the caller is authenticated and scoped. */
@ApiTags('calls')
@ApiErrorResponse(501, 'not_implemented')
@Controller()
export class CallsController {
  @Get('calls')
  @RequireScopes('calls:read')
  @ApiOperation({ summary: "List the team's calls (not active yet)" })
  listCalls(): never {
    throw Errors.notImplemented(NOT_ACTIVE);
  }

  @Get('agents/:agentId/calls')
  @RequireScopes('calls:read')
  @ApiOperation({ summary: "List an agent's calls (not active yet)" })
  listAgentCalls(@Param('agentId') _agentId: string): never {
    throw Errors.notImplemented(NOT_ACTIVE);
  }

  @Post('agents/:agentId/calls')
  @RequireScopes('calls:write')
  @ApiErrors(409, 422)
  @ApiIdempotencyKey()
  @ApiOperation({ summary: 'Place a call from an agent (not active yet)' })
  createAgentCall(@Param('agentId') _agentId: string): never {
    throw Errors.notImplemented(NOT_ACTIVE);
  }

  @Get('agents/:agentId/calls/:callId')
  @RequireScopes('calls:read')
  @ApiOperation({ summary: 'Retrieve a call of an agent (not active yet)' })
  getAgentCall(@Param('agentId') _agentId: string, @Param('callId') _callId: string): never {
    throw Errors.notImplemented(NOT_ACTIVE);
  }
}
