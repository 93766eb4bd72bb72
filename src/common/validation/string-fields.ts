import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsHttpUrl } from '@/config/http-url';
import { LIMITS } from './limits';

type DocOptions = Omit<ApiPropertyOptions, 'maxLength' | 'nullable' | 'required'>;

/** A required, non-empty string of at most `maxLength` characters. */
export const RequiredString = (maxLength: number, docs: DocOptions = {}) =>
  applyDecorators(
    ApiProperty({ ...docs, minLength: 1, maxLength } as ApiPropertyOptions),
    IsString(),
    IsNotEmpty(),
    MaxLength(maxLength),
  );

/** An optional string of at most `maxLength` characters; null clears it. */
export const NullableString = (maxLength: number, docs: DocOptions = {}) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, ...docs, maxLength, nullable: true } as ApiPropertyOptions),
    IsOptional(),
    IsString(),
    MaxLength(maxLength),
  );

/** An optional http(s) URL; null clears it. */
export const NullableHttpUrl = (docs: DocOptions = {}) =>
  applyDecorators(
    NullableString(LIMITS.url, { description: 'An http(s) URL', ...docs }),
    IsHttpUrl(),
  );
