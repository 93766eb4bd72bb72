import { PatchType } from '@/common/validation/patch-type';
import { AgentCreateDto } from './agent-create.dto';

export class AgentUpdateDto extends PatchType(AgentCreateDto) {}
