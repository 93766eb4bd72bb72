import { applyDecorators, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { ErrorStatus } from '@/common/http/api-docs.decorators';
import { Errors } from '@/common/http/api-error';
import { Endpoint } from '@/modules/auth/endpoint.decorator';

const NOT_ACTIVE = 'Call history is not active yet';

/**
 * What clients send to the call lists: accepted (the strict query rule refuses only other
 * names), never validated, since the answer is 501 whatever they hold.
 */
const CALL_LIST_QUERY = ['page', 'limit', 'search', 'sort', 'is_test_call', 'status'] as const;
const CallListQuery = () =>
  applyDecorators(
    ...CALL_LIST_QUERY.map((name) => ApiQuery({ name, type: String, required: false })),
  );

/**
 * Under `/agents/{agentId}`: a key limited to other agents is answered 404 (docs/api.md §2) before
 * the route's 501; a write still meets Idempotency-Key conflicts.
 */
const AGENT_LIMITED_404_READ: ErrorStatus[] = [404];
const AGENT_LIMITED_404_WRITE: ErrorStatus[] = [404, 409, 422];

/** docs/api.md §6: every call endpoint answers 501 once the caller is authenticated and scoped. */
@ApiTags('calls')
@Controller()
export class CallsController {
  @Get('calls')
  @CallListQuery()
  @Endpoint({
    scope: 'calls:read',
    summary: "List the team's calls (not active yet)",
    notImplemented: true,
  })
  listCalls(): never {
    throw Errors.notImplemented(NOT_ACTIVE);
  }

  @Get('agents/:agentId/calls')
  @CallListQuery()
  @Endpoint({
    scope: 'calls:read',
    summary: "List an agent's calls (not active yet)",
    notImplemented: true,
    errors: AGENT_LIMITED_404_READ,
  })
  listAgentCalls(@Param('agentId') _agentId: string): never {
    throw Errors.notImplemented(NOT_ACTIVE);
  }

  @Post('agents/:agentId/calls')
  @Endpoint({
    scope: 'calls:write',
    summary: 'Place a call from an agent (not active yet)',
    notImplemented: true,
    errors: AGENT_LIMITED_404_WRITE,
  })
  createAgentCall(@Param('agentId') _agentId: string): never {
    throw Errors.notImplemented(NOT_ACTIVE);
  }

  @Get('agents/:agentId/calls/:callId')
  @Endpoint({
    scope: 'calls:read',
    summary: 'Retrieve a call of an agent (not active yet)',
    notImplemented: true,
    errors: AGENT_LIMITED_404_READ,
  })
  getAgentCall(@Param('agentId') _agentId: string, @Param('callId') _callId: string): never {
    throw Errors.notImplemented(NOT_ACTIVE);
  }
}
