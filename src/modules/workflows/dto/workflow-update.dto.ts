import { PatchType } from '@/common/validation/patch-type';
import { WorkflowCreateDto } from './workflow-create.dto';

export class WorkflowUpdateDto extends PatchType(WorkflowCreateDto) {}
