import { bodyLimitBytes, Environment, LogFormat, LogLevel, parseCorsOrigins } from './environment';
import { validateEnvironment } from './environment-validation';
import { parseTrustProxy, TrustProxy } from './trust-proxy';

const withoutTrailingSlashes = (url: string) => url.replace(/\/+$/, '');

/** A WhatsApp Cloud API number the installation owns, shared by every team's agents under test. */
export interface TestWhatsAppNumber {
  displayNumber: string;
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

/**
 * The settings of the service, grouped by what they configure and already parsed: code asks for
 * `config.stream.heartbeatMs`, never for a variable name. Built once per process, from the
 * environment validated once, and injected as itself.
 */
export class AppConfig {
  readonly http: {
    port: number;
    host: string;
    bodyLimitBytes: number;
    /** Unset: CORS is off; `*`: any origin. */
    corsOrigins: string[] | '*' | undefined;
    trustProxy: TrustProxy | undefined;
  };
  readonly database: { url: string; poolSize: number };
  /** The key that encrypts stored secrets, when given rather than kept beside a SQLite file. */
  readonly encryption: { secretKey: string | undefined };
  readonly auth: { bootstrapKey: string | undefined };
  /** No URL: embedded mode, shared state in process memory. */
  readonly redis: { url: string | undefined; keyPrefix: string };
  readonly rateLimit: { max: number; windowS: number };
  readonly idempotency: { ttlS: number };
  readonly stream: {
    ticketTtlS: number;
    maxPerSubject: number;
    heartbeatMs: number;
    slotLeaseMs: number;
  };
  /**
   * Where the public reach the service (widget script, channel webhooks); unset: the local
   * address it listens on. The web chat's messages a visitor and an address may send a minute.
   */
  readonly publicSurface: { url: string; urlConfigured: boolean; widgetRateLimitMax: number };
  /** Meta's Graph API (WhatsApp Cloud API, Messenger, Instagram); tests and proxies stand in. */
  readonly meta: {
    /** The installation's shared WhatsApp test number (docs/api.md §4d, the test code), or null. */
    testNumber: TestWhatsAppNumber | null;
    graphBaseUrl: string;
    firstRetryS: number;
    mediaMaxBytes: number;
  };
  /** The time zone whose days the reports count in. */
  readonly reports: { timeZone: string };
  readonly outbound: { allowPrivate: boolean; timeoutMs: number };
  /** URL items: each fetch's time cap, and how often a fetched page is fetched again (0: never). */
  readonly knowledge: {
    fetchTimeoutMs: number;
    refreshHours: number;
    /** Reading a fetched HTML page's text (in a worker thread): its time cap and largest input. */
    readTimeoutMs: number;
    pageMaxBytes: number;
    /** Knowledge text (text items, fetched pages) a team may store, UTF-8 bytes. */
    maxBytesPerTeam: number;
  };
  /** No base URL: knowledge answers come from the best passage, without a model. */
  readonly llm: {
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string;
    timeoutMs: number;
    /** Rounds of tool calls a model may make in one reply. */
    maxToolSteps: number;
    /** Tool calls a model may make in one reply, over all its rounds; beyond it they are refused. */
    maxToolCalls: number;
    /** Replies queued or running in this instance beyond which customer messages are refused. */
    backlogMax: number;
    /** Replies waiting for a slot beyond which a customer message waits its turn. */
    waitingMax: number;
  };
  readonly agents: {
    quota: number;
    /** Where a person reaches an agent under test; unset channels are disabled. */
    testChannels: {
      whatsappNumber: string | undefined;
      instagramUsername: string | undefined;
      messengerPage: string | undefined;
      telephonyNumber: string | undefined;
    };
  };
  readonly integrations: {
    dashboardUrl: string;
    pipedreamMcpUrl: string;
    /** Where the built-in connectors call their providers; tests and proxies stand in here. */
    providers: { stripe: string; paystack: string; bumpa: string };
  };
  /** Provisioning requests a team may have waiting for an operator at once. */
  readonly phoneNumbers: { maxPendingRequests: number };
  readonly webhooks: { retryMaxAgeS: number; firstRetryS: number; maxEndpoints: number };
  /** No SMTP URL: hand-off mails are not sent. */
  readonly mail: {
    smtpUrl: string | undefined;
    from: string;
    escalationCooldownS: number;
    /** Hand-off mails per hour, per team and per recipient address. */
    maxPerHour: number;
  };
  /** Finished background records are deleted this many days after they finished. */
  readonly retention: { days: number };
  readonly logging: { level: LogLevel; file: string | undefined; format: LogFormat };
  /** No port: no metrics endpoint. */
  readonly metrics: { port: number | undefined; host: string };
  /** No endpoint: no spans are recorded or sent. */
  readonly tracing: { otlpEndpoint: string | undefined; serviceName: string };

  constructor(env: Environment) {
    this.http = {
      port: env.PORT,
      host: env.HOST ?? '0.0.0.0',
      bodyLimitBytes: bodyLimitBytes(env.BODY_LIMIT),
      corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
      trustProxy: parseTrustProxy(env.TRUST_PROXY),
    };
    this.database = { url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE };
    this.encryption = { secretKey: env.CONSOLE_SECRET_KEY };
    this.auth = { bootstrapKey: env.CONSOLE_BOOTSTRAP_KEY };
    this.redis = { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX };
    this.rateLimit = { max: env.RATE_LIMIT_MAX, windowS: env.RATE_LIMIT_WINDOW_S };
    this.idempotency = { ttlS: env.IDEMPOTENCY_TTL_S };
    this.stream = {
      ticketTtlS: env.STREAM_TICKET_TTL_S,
      maxPerSubject: env.STREAM_MAX_PER_SUBJECT,
      heartbeatMs: env.STREAM_HEARTBEAT_MS,
      slotLeaseMs: env.STREAM_SLOT_LEASE_MS,
    };
    this.outbound = {
      allowPrivate: env.OUTBOUND_ALLOW_PRIVATE,
      timeoutMs: env.OUTBOUND_TIMEOUT_MS,
    };
    this.knowledge = {
      fetchTimeoutMs: env.KNOWLEDGE_FETCH_TIMEOUT_MS,
      refreshHours: env.KNOWLEDGE_REFRESH_HOURS,
      readTimeoutMs: env.KNOWLEDGE_READ_TIMEOUT_MS,
      pageMaxBytes: env.KNOWLEDGE_PAGE_MAX_KB * 1024,
      maxBytesPerTeam: env.KNOWLEDGE_MAX_MB_PER_TEAM * 1024 * 1024,
    };
    this.llm = {
      baseUrl: env.LLM_BASE_URL && withoutTrailingSlashes(env.LLM_BASE_URL),
      apiKey: env.LLM_API_KEY,
      model: env.LLM_MODEL,
      timeoutMs: env.LLM_TIMEOUT_MS,
      maxToolSteps: env.LLM_MAX_TOOL_STEPS,
      maxToolCalls: env.LLM_MAX_TOOL_CALLS,
      backlogMax: env.REPLY_BACKLOG_MAX,
      waitingMax: env.REPLY_WAITING_MAX,
    };
    this.agents = {
      quota: env.AGENT_QUOTA,
      testChannels: {
        whatsappNumber: env.TEST_WHATSAPP_NUMBER,
        instagramUsername: env.TEST_INSTAGRAM_USERNAME,
        messengerPage: env.TEST_MESSENGER_PAGE,
        telephonyNumber: env.TEST_TELEPHONY_NUMBER,
      },
    };
    this.integrations = {
      dashboardUrl: withoutTrailingSlashes(env.DASHBOARD_URL),
      pipedreamMcpUrl: withoutTrailingSlashes(env.PIPEDREAM_MCP_URL),
      providers: {
        stripe: withoutTrailingSlashes(env.STRIPE_API_BASE_URL),
        paystack: withoutTrailingSlashes(env.PAYSTACK_API_BASE_URL),
        bumpa: withoutTrailingSlashes(env.BUMPA_API_BASE_URL),
      },
    };
    this.phoneNumbers = { maxPendingRequests: env.PHONE_NUMBER_MAX_PENDING_REQUESTS };
    this.webhooks = {
      retryMaxAgeS: env.WEBHOOK_RETRY_MAX_AGE_S,
      firstRetryS: env.WEBHOOK_FIRST_RETRY_S,
      maxEndpoints: env.WEBHOOK_MAX_ENDPOINTS,
    };
    this.retention = { days: env.RETENTION_DAYS };
    this.reports = { timeZone: env.TEAM_TIME_ZONE };
    this.meta = {
      testNumber: testNumberOf(env),
      graphBaseUrl: withoutTrailingSlashes(env.META_GRAPH_BASE_URL),
      firstRetryS: env.CHANNEL_FIRST_RETRY_S,
      mediaMaxBytes: env.META_MEDIA_MAX_BYTES,
    };
    this.publicSurface = {
      url: withoutTrailingSlashes(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`),
      urlConfigured: env.PUBLIC_URL !== undefined,
      widgetRateLimitMax: env.WIDGET_RATE_LIMIT_MAX,
    };
    this.mail = {
      smtpUrl: env.SMTP_URL,
      from: env.SMTP_FROM,
      escalationCooldownS: env.ESCALATION_EMAIL_COOLDOWN_S,
      maxPerHour: env.HANDOFF_MAIL_MAX_PER_HOUR,
    };
    this.logging = { level: env.LOG_LEVEL, file: env.LOG_FILE, format: env.LOG_FORMAT };
    this.metrics = { port: env.METRICS_PORT, host: env.METRICS_HOST };
    this.tracing = {
      otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
      serviceName: env.OTEL_SERVICE_NAME,
    };
  }
}

/** The shared test number, when configured (validation makes its settings all-or-none). */
function testNumberOf(env: Environment): TestWhatsAppNumber | null {
  const {
    TEST_WHATSAPP_NUMBER: displayNumber,
    TEST_WHATSAPP_PHONE_NUMBER_ID: phoneNumberId,
    TEST_WHATSAPP_ACCESS_TOKEN: accessToken,
    TEST_WHATSAPP_APP_SECRET: appSecret,
    TEST_WHATSAPP_VERIFY_TOKEN: verifyToken,
  } = env;
  return displayNumber && phoneNumberId && accessToken && appSecret && verifyToken
    ? { displayNumber, phoneNumberId, accessToken, appSecret, verifyToken }
    : null;
}

/** Validates the variables (the error names every bad one) and builds the configuration. */
export function loadAppConfig(raw: Record<string, string | undefined>): AppConfig {
  return new AppConfig(validateEnvironment(raw));
}
