import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsOptional,
  IsString,
  Matches,
  ValidateBy,
} from 'class-validator';
import { OptionalNotNull } from '@/common/validation/decorators';
import { NullableString } from '@/common/validation/string-fields';

export const MAX_ALLOWED_ORIGINS = 20;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

/**
 * An origin a web chat may be embedded on, written as a browser sends it: `https://shop.example`
 * (a port when not 443), or `http://localhost:<port>` / `http://127.0.0.1:<port>` for development.
 * No path, no trailing slash, no credentials, lower case.
 */
export function isWidgetOrigin(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 255) {
    return false;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.origin !== value) {
    return false;
  }
  return url.protocol === 'https:' || (LOCAL_HOSTS.has(url.hostname) && url.port !== '');
}

const IsWidgetOrigin = () =>
  ValidateBy(
    {
      name: 'isWidgetOrigin',
      validator: {
        validate: (value: unknown) => isWidgetOrigin(value),
        defaultMessage: () =>
          'allowed_origins: each must be an origin such as https://shop.example (no path or ' +
          'trailing slash), or http://localhost:<port> / http://127.0.0.1:<port>',
      },
    },
    { each: true },
  );

/** POST `/agents/{agentId}/channels/webchat/connect`. */
export class WebchatConnectDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_ALLOWED_ORIGINS,
    example: ['https://shop.example'],
    description: 'The origins of the pages that may embed the widget',
  })
  @IsWidgetOrigin()
  @ArrayMaxSize(MAX_ALLOWED_ORIGINS)
  @ArrayMinSize(1)
  @IsArray()
  allowed_origins: string[];

  @NullableString(100, { description: "The panel's title (default: the agent's name)" })
  title?: string | null;

  @NullableString(500, { description: 'The first line the visitor sees' })
  greeting?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '#0f766e',
    pattern: '^#[0-9a-fA-F]{6}$',
  })
  @Matches(/^#[0-9a-fA-F]{6}$/, { message: 'color must be a #rrggbb color' })
  @IsString()
  @IsOptional()
  color?: string | null;

  @ApiPropertyOptional({
    description: 'A new publishable key: the old one stops working at once',
    default: false,
  })
  @IsBoolean()
  @OptionalNotNull()
  rotate_key?: boolean;
}
