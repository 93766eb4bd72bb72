import { NullableHttpUrl, NullableString, RequiredString } from '@/common/validation/string-fields';
import { LIMITS } from '@/common/validation/limits';
import { AuthSettingsDto } from './auth-config.dto';

export class CustomApiConfigureDto extends AuthSettingsDto {
  @RequiredString(LIMITS.name)
  name: string;

  @NullableString(LIMITS.description)
  description?: string | null;

  @NullableHttpUrl({ description: 'Public http(s) URL' })
  base_url?: string | null;

  @NullableHttpUrl({ description: 'Public http(s) URL' })
  test_endpoint?: string | null;
}
