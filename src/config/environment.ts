import { IsIn, IsString, Matches } from 'class-validator';
import bytes from 'bytes';
import {
  BooleanSetting,
  IntegerSetting,
  IsPhoneNumber,
  IsSmtpUrl,
  IsTimeZone,
  OptionalSetting,
} from './setting.decorators';
import { IsHttpUrl } from '@/config/http-url';
import { IsTrustProxy } from './trust-proxy';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const API_KEY_FORMAT = /^sk_[A-Za-z0-9_-]{32,}$/;
const DATABASE_URL_FORMAT = /^(sqlite:.+|postgres(ql)?:\/\/.+)$/;

/** Every variable the service reads, as validated at start; the code reads them through AppConfig. */
export class Environment {
  @IntegerSetting({ min: 0, max: 65535 })
  PORT = 3000;

  @OptionalSetting()
  HOST?: string;

  @Matches(DATABASE_URL_FORMAT, { message: 'must be sqlite:<path> or postgres://…' })
  DATABASE_URL = 'sqlite:./data/console.sqlite';

  @IntegerSetting({ min: 1, max: 1000 })
  DATABASE_POOL_SIZE = 10;

  @OptionalSetting(Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// or rediss:// URL' }))
  REDIS_URL?: string;

  @Matches(/^[A-Za-z0-9:_.-]{0,64}$/, { message: 'must be up to 64 letters, digits or :_.-' })
  REDIS_KEY_PREFIX = 'console:';

  @OptionalSetting(
    Matches(API_KEY_FORMAT, { message: 'must be sk_ followed by at least 32 URL-safe characters' }),
  )
  CONSOLE_BOOTSTRAP_KEY?: string;

  @IntegerSetting({ min: 1 })
  RATE_LIMIT_MAX = 600;

  @IntegerSetting({ min: 1 })
  RATE_LIMIT_WINDOW_S = 60;

  @IntegerSetting({ min: 1 })
  IDEMPOTENCY_TTL_S = 86400;

  @IntegerSetting({ min: 0 })
  AGENT_QUOTA = 50;

  @IntegerSetting({ min: 1 })
  PHONE_NUMBER_MAX_PENDING_REQUESTS = 10;

  @IntegerSetting({ min: 1 })
  STREAM_TICKET_TTL_S = 60;

  @IntegerSetting({ min: 1 })
  STREAM_MAX_PER_SUBJECT = 25;

  @IntegerSetting({ min: 100 })
  STREAM_HEARTBEAT_MS = 20000;

  @IntegerSetting({ min: 300 })
  STREAM_SLOT_LEASE_MS = 15000;

  @Matches(/^\d+(\.\d+)?\s*(b|kb|mb)$/i, { message: 'must be a size such as 1mb or 512kb' })
  BODY_LIMIT = '1mb';

  @OptionalSetting()
  CORS_ORIGINS?: string;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  @OptionalSetting()
  LOG_FILE?: string;

  @IsIn(LOG_FORMATS)
  LOG_FORMAT: LogFormat = 'auto';

  @OptionalSetting(IntegerSetting({ min: 1, max: 65535 }))
  METRICS_PORT?: number;

  @Matches(/^[\w.:-]+$/, { message: 'must be an address or host name to listen on' })
  METRICS_HOST = '127.0.0.1';

  @OptionalSetting(IsHttpUrl())
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  @Matches(/^[\w.-]{1,100}$/, { message: 'must be 1 to 100 letters, digits or _.-' })
  OTEL_SERVICE_NAME = 'console-api';

  @OptionalSetting(
    Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, {
      message: 'must be 32 bytes, as 64 hex characters or base64',
    }),
  )
  CONSOLE_SECRET_KEY?: string;

  @IsTrustProxy()
  TRUST_PROXY = 'false';

  @IsHttpUrl()
  DASHBOARD_URL = 'http://localhost:5173';

  @OptionalSetting(IsHttpUrl())
  PUBLIC_URL?: string;

  @IsHttpUrl()
  META_GRAPH_BASE_URL = 'https://graph.facebook.com/v21.0';

  @IntegerSetting({ min: 1, max: 30 })
  CHANNEL_FIRST_RETRY_S = 15;

  /** The largest customer media the attachment route relays from the provider. */
  @IntegerSetting({ min: 1, max: 104_857_600 })
  META_MEDIA_MAX_BYTES = 16_777_216;

  @IntegerSetting({ min: 1, max: 100000 })
  WIDGET_RATE_LIMIT_MAX = 30;

  @BooleanSetting()
  OUTBOUND_ALLOW_PRIVATE = false;

  @IntegerSetting({ min: 100, max: 120_000 })
  OUTBOUND_TIMEOUT_MS = 10_000;

  @IntegerSetting({ min: 0, max: 8_760 })
  KNOWLEDGE_REFRESH_HOURS = 24;

  @IntegerSetting({ min: 100, max: 120_000 })
  KNOWLEDGE_FETCH_TIMEOUT_MS = 15_000;

  @IntegerSetting({ min: 100, max: 120_000 })
  KNOWLEDGE_READ_TIMEOUT_MS = 10_000;

  @IntegerSetting({ min: 1, max: 5_120 })
  KNOWLEDGE_PAGE_MAX_KB = 2_048;

  @IntegerSetting({ min: 1 })
  KNOWLEDGE_MAX_MB_PER_TEAM = 50;

  @Matches(/^https:\/\/[^\s]+$/, { message: 'must be an https URL' })
  PIPEDREAM_MCP_URL = 'https://remote.mcp.pipedream.net';

  @IsHttpUrl()
  STRIPE_API_BASE_URL = 'https://api.stripe.com';

  @IsHttpUrl()
  PAYSTACK_API_BASE_URL = 'https://api.paystack.co';

  @IsHttpUrl()
  BUMPA_API_BASE_URL = 'https://api.getbumpa.com/api/commerce/v1';

  @OptionalSetting(IsHttpUrl())
  LLM_BASE_URL?: string;

  @OptionalSetting()
  LLM_API_KEY?: string;

  @IsString()
  LLM_MODEL = 'gpt-4o-mini';

  @IntegerSetting({ min: 100, max: 120_000 })
  LLM_TIMEOUT_MS = 15_000;

  @IntegerSetting({ min: 0, max: 16 })
  LLM_MAX_TOOL_STEPS = 4;

  @IntegerSetting({ min: 0, max: 100 })
  LLM_MAX_TOOL_CALLS = 8;

  /** Replies an instance may have waiting before it refuses new customer messages (503). */
  @IntegerSetting({ min: 1, max: 1_000_000 })
  REPLY_BACKLOG_MAX = 5_000;

  /** Replies waiting for a slot past which a new customer message waits for one to be written. */
  @IntegerSetting({ min: 1, max: 1_000_000 })
  REPLY_WAITING_MAX = 32;

  @OptionalSetting(IsPhoneNumber())
  TEST_WHATSAPP_NUMBER?: string;

  @OptionalSetting(
    Matches(/^\d{1,64}$/, { message: 'must be a WhatsApp phone number id (digits)' }),
  )
  TEST_WHATSAPP_PHONE_NUMBER_ID?: string;

  @OptionalSetting()
  TEST_WHATSAPP_ACCESS_TOKEN?: string;

  @OptionalSetting()
  TEST_WHATSAPP_APP_SECRET?: string;

  @OptionalSetting()
  TEST_WHATSAPP_VERIFY_TOKEN?: string;

  @OptionalSetting(Matches(/^[A-Za-z0-9._]{1,30}$/, { message: 'must be an Instagram username' }))
  TEST_INSTAGRAM_USERNAME?: string;

  @OptionalSetting(
    Matches(/^[A-Za-z0-9.-]{1,100}$/, { message: 'must be a Facebook page name or id' }),
  )
  TEST_MESSENGER_PAGE?: string;

  @OptionalSetting(IsPhoneNumber())
  TEST_TELEPHONY_NUMBER?: string;

  @IntegerSetting({ min: 1 })
  WEBHOOK_RETRY_MAX_AGE_S = 86400;

  @IntegerSetting({ min: 1, max: 30 })
  WEBHOOK_FIRST_RETRY_S = 30;

  @IntegerSetting({ min: 1, max: 1000 })
  WEBHOOK_MAX_ENDPOINTS = 20;

  @IntegerSetting({ min: 1, max: 3650 })
  RETENTION_DAYS = 30;

  @OptionalSetting(IsSmtpUrl())
  SMTP_URL?: string;

  @IsString()
  SMTP_FROM = 'Console <no-reply@localhost>';

  @IntegerSetting({ min: 0 })
  ESCALATION_EMAIL_COOLDOWN_S = 900;

  @IntegerSetting({ min: 1, max: 100000 })
  HANDOFF_MAIL_MAX_PER_HOUR = 60;

  @IsTimeZone()
  TEAM_TIME_ZONE = 'UTC';
}

export function bodyLimitBytes(bodyLimit: string): number {
  return bytes.parse(bodyLimit) ?? 1024 * 1024;
}

/** `CORS_ORIGINS`: unset disables CORS, `*` allows any origin, else a comma-separated list. */
export function parseCorsOrigins(value: string | undefined): string[] | '*' | undefined {
  if (!value) {
    return undefined;
  }
  if (value.trim() === '*') {
    return '*';
  }
  return value
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
}
