import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES, ErrorCode } from './api-error';

export class ErrorBodyDto {
  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'A sentence; for validation_error, a list of "<field path>: <problem>"',
  })
  message: string | string[];

  @ApiProperty({ example: 'Not Found', description: 'HTTP reason phrase' })
  error: string;

  @ApiProperty({ enum: ERROR_CODES })
  code: ErrorCode;

  @ApiProperty({ example: 404 })
  statusCode: number;

  @ApiPropertyOptional({ description: 'Equals the X-Request-Id response header' })
  request_id?: string;
}
