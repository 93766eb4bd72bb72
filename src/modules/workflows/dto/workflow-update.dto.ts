import { PartialType } from '@nestjs/swagger';
import { WorkflowCreateDto } from './workflow-create.dto';

/** Any subset of the create fields; a field sent as null is refused unless it is nullable. */
export class WorkflowUpdateDto extends PartialType(WorkflowCreateDto, {
  skipNullProperties: false,
}) {}
