import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES, ErrorCode } from './api-error';

export class ErrorBodyDto {
  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'A sentence; for validation_error, a list of "<field path>: <problem>"',
  })
  message: string | string[];

  @ApiProperty({ description: 'HTTP reason phrase' })
  error: string;

  @ApiProperty({ enum: ERROR_CODES })
  code: ErrorCode;

  @ApiProperty({ type: 'integer', description: 'The HTTP status' })
  statusCode: number;

  @ApiPropertyOptional({ description: 'Equals the X-Request-Id response header' })
  request_id?: string;
}
