import { FakeGraphApi } from '../support/fake-graph-api';
import { recordSecret } from '../support/log-capture';
import { API, TestApp } from './test-app';

export interface ConnectedWhatsApp {
  id: string;
  verify_token: string;
  /** Where Meta posts the channel's notifications, on the app under test. */
  webhookPath: string;
}

/**
 * Connects the agent's WhatsApp with the fake Graph API's credentials and `appSecret`; its
 * verify token is recorded, so logs are checked for it.
 */
export async function connectWhatsApp(
  t: TestApp,
  agentId: string,
  graph: FakeGraphApi,
  appSecret: string,
): Promise<ConnectedWhatsApp> {
  const channel = (
    await t
      .api()
      .post(`${API}/agents/${agentId}/channels/whatsapp/connect`)
      .send({
        phone_number_id: graph.options.phoneNumberId,
        access_token: graph.options.accessToken,
        app_secret: appSecret,
      })
      .expect(200)
  ).body.data;
  recordSecret('integration secret', channel.verify_token);
  return { ...channel, webhookPath: `/api/v1/channels/${channel.id}/webhook` };
}

/** A web chat connected for `origin`, and a request of its widget API as widget.js sends it. */
export async function connectWebchat(t: TestApp, agentId: string, origin: string) {
  const connected = await t
    .api()
    .post(`${API}/agents/${agentId}/channels/webchat/connect`)
    .send({ allowed_origins: [origin] })
    .expect(200);
  const publishableKey: string = connected.body.data.publishable_key;
  const widget = (method: 'get' | 'post', path: string) =>
    t
      .http()
      [method](`/api/v1/widget${path}`)
      .set('Authorization', `Bearer ${publishableKey}`)
      .set('Origin', origin);
  return { publishableKey, widget };
}
