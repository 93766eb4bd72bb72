import { BodyId } from '@/common/validation/id-fields';
import { RequiredString } from '@/common/validation/string-fields';

export class WorkflowCloneDto {
  @BodyId()
  @RequiredString(64, { description: 'An own or public workflow' })
  source_workflow_id: string;
}
