import { loadAppConfig } from './app-config';

const TEST_NUMBER = {
  TEST_WHATSAPP_NUMBER: '+15550100',
  TEST_WHATSAPP_PHONE_NUMBER_ID: '1055501000',
  TEST_WHATSAPP_ACCESS_TOKEN: 'EAAtest',
  TEST_WHATSAPP_APP_SECRET: 'test-secret',
  TEST_WHATSAPP_VERIFY_TOKEN: 'test-verify',
};

describe('AppConfig', () => {
  it('groups the defaults by what they configure', () => {
    const config = loadAppConfig({});
    expect(config.http).toEqual({
      port: 3000,
      host: '0.0.0.0',
      bodyLimitBytes: 1024 * 1024,
      corsOrigins: undefined,
      trustProxy: false,
    });
    expect(config.stream).toEqual({
      ticketTtlS: 60,
      maxPerSubject: 25,
      heartbeatMs: 20000,
      slotLeaseMs: 15000,
    });
    expect(config.llm.baseUrl).toBeUndefined();
    expect(config.redis).toEqual({ url: undefined, keyPrefix: 'console:' });
    expect(config.integrations.providers).toEqual({
      stripe: 'https://api.stripe.com',
      paystack: 'https://api.paystack.co',
      bumpa: 'https://api.getbumpa.com/api/commerce/v1',
    });
  });

  it('wants the shared test number settings all or none', () => {
    expect(loadAppConfig({}).meta.testNumber).toBeNull();
    const { TEST_WHATSAPP_APP_SECRET: _left, ...withoutSecret } = TEST_NUMBER;
    expect(() => loadAppConfig(withoutSecret)).toThrow(/TEST_WHATSAPP_APP_SECRET: required with/);
    expect(() => loadAppConfig({ TEST_WHATSAPP_NUMBER: '+15550100' })).toThrow(
      /TEST_WHATSAPP_PHONE_NUMBER_ID, TEST_WHATSAPP_ACCESS_TOKEN/,
    );
    expect(() => loadAppConfig(withoutSecret)).not.toThrow(/EAAtest|test-verify/);
  });

  it('parses what the code would otherwise parse at each use', () => {
    const config = loadAppConfig({
      BODY_LIMIT: '512kb',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      TRUST_PROXY: '2',
      DASHBOARD_URL: 'https://dash.example//',
      LLM_BASE_URL: 'https://llm.example/v1/',
      ...TEST_NUMBER,
      STRIPE_API_BASE_URL: 'http://127.0.0.1:9/stripe/',
    });
    expect(config.http.bodyLimitBytes).toBe(512 * 1024);
    expect(config.http.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(config.http.trustProxy).toBe(2);
    expect(config.integrations.dashboardUrl).toBe('https://dash.example');
    expect(config.llm.baseUrl).toBe('https://llm.example/v1');
    expect(config.agents.testChannels.whatsappNumber).toBe('+15550100');
    expect(config.meta.testNumber).toEqual({
      displayNumber: '+15550100',
      phoneNumberId: '1055501000',
      accessToken: 'EAAtest',
      appSecret: 'test-secret',
      verifyToken: 'test-verify',
    });
    expect(config.integrations.providers.stripe).toBe('http://127.0.0.1:9/stripe');
    expect(() => loadAppConfig({ PAYSTACK_API_BASE_URL: 'paystack' })).toThrow(
      /PAYSTACK_API_BASE_URL/,
    );
  });
});
