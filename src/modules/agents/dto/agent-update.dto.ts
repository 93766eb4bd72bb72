import { PartialType } from '@nestjs/swagger';
import { AgentCreateDto } from './agent-create.dto';

/** Any subset of the create fields; the required ones cannot be cleared with null. */
export class AgentUpdateDto extends PartialType(AgentCreateDto, { skipNullProperties: false }) {}
