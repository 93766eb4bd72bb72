import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const GRAPH_ID = /^\d{1,32}$/;
const SECRET_MAX = 1024;

const GraphId = (description: string) => (target: object, property: string) => {
  ApiProperty({ description, pattern: GRAPH_ID.source })(target, property);
  Matches(GRAPH_ID, { message: `${property} must be a numeric Graph API id` })(target, property);
  IsString()(target, property);
};

const Secret = (description: string) => (target: object, property: string) => {
  ApiProperty({ description, writeOnly: true, minLength: 8, maxLength: SECRET_MAX })(
    target,
    property,
  );
  MaxLength(SECRET_MAX)(target, property);
  MinLength(8)(target, property);
  IsString()(target, property);
};

class VerifyTokenDto {
  @ApiPropertyOptional({
    description: "The webhook's verify token to paste in the Meta app; generated when left out",
    minLength: 8,
    maxLength: 128,
  })
  @IsOptional()
  @IsString()
  @MinLength(8)
  @MaxLength(128)
  @Matches(/^[\x21-\x7e]+$/, { message: 'verify_token must be printable ASCII without spaces' })
  verify_token?: string;
}

/** POST `/agents/{agentId}/channels/whatsapp/connect` (WhatsApp Cloud API). */
export class WhatsAppConnectDto extends VerifyTokenDto {
  @GraphId('The WhatsApp Business phone number id (not the number itself)')
  phone_number_id: string;

  @Secret('A system-user access token with whatsapp_business_messaging')
  access_token: string;

  @Secret("The Meta app's secret: webhook notifications are signed with it")
  app_secret: string;
}

/** POST `/agents/{agentId}/channels/{messenger|instagram}/connect` (a Facebook page). */
export class MetaPageConnectDto extends VerifyTokenDto {
  @GraphId('The Facebook page id (Instagram: the page linked to the Instagram account)')
  page_id: string;

  @Secret('A page access token with pages_messaging (Instagram: instagram_manage_messages)')
  page_access_token: string;

  @Secret("The Meta app's secret: webhook notifications are signed with it")
  app_secret: string;
}
