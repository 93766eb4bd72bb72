import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class WorkflowCloneDto {
  @ApiProperty({ description: 'An own or public workflow' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  source_workflow_id: string;
}
