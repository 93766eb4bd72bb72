import { createAgent } from '../factories/agents';
import { conversationsPath, repliesSettled } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { FakeGraphApi, messengerTextNotification, signMeta } from '../support/fake-graph-api';
import { recordSecret } from '../support/log-capture';
import { pollUntil } from '../support/wait';

const APP_SECRET = 'profile-names-app-secret';
/** Short, so that a lookup Meta never answers ends within the test. */
const OUTBOUND_TIMEOUT_MS = 1_500;

type PageChannel = 'messenger' | 'instagram';

interface Conversation {
  id: string;
  channel_user_username: string | null;
  full_name: string | null;
}

/**
 * docs/api.md §4d: Messenger and Instagram send no profile name; it is asked of the Graph API
 * (best effort) while the sender's conversation has none, and set on the conversation and its
 * contact.
 */
describe('channel webhooks: Messenger and Instagram profile names', () => {
  let t: TestApp;
  let graph: FakeGraphApi;
  const agents = {} as Record<PageChannel, { id: string; webhookPath: string }>;
  let sender = 0;

  const connect = async (type: PageChannel) => {
    const agent = await createAgent(t, { name: `${type} agent` });
    const channel = (
      await t
        .api()
        .post(`${API}/agents/${agent.id}/channels/${type}/connect`)
        .send({
          page_id: graph.options.pageId,
          page_access_token: graph.options.accessToken,
          app_secret: APP_SECRET,
        })
        .expect(200)
    ).body.data;
    recordSecret('integration secret', channel.verify_token);
    return { id: agent.id as string, webhookPath: `/api/v1/channels/${channel.id}/webhook` };
  };
  const send = async (type: PageChannel, senderId: string, text: string) => {
    const body = messengerTextNotification({
      pageId: graph.options.pageId,
      senderId,
      text,
      object: type === 'instagram' ? 'instagram' : 'page',
    });
    const raw = JSON.stringify(body);
    await t
      .http()
      .post(agents[type].webhookPath)
      .set('Content-Type', 'application/json')
      .set('X-Hub-Signature-256', signMeta(raw, APP_SECRET))
      .send(raw)
      .expect(200);
  };
  /** The sender's conversation once it holds `count` of their messages, with its contact's name. */
  const conversationOf = async (type: PageChannel, senderId: string, count = 1) => {
    const path = conversationsPath(agents[type].id);
    const { value } = await pollUntil(
      async () => {
        const [found] = (await t.api().get(`${path}?search=${senderId}`).expect(200)).body
          .data as Array<{ id: string }>;
        const messages = found
          ? ((await t.api().get(`${path}/${found.id}/messages`).expect(200)).body.data as Array<{
              role: string;
            }>)
          : [];
        return { found, users: messages.filter((m) => m.role === 'user').length };
      },
      ({ users }) => users >= count,
      15_000,
      25,
    );
    expect(value.users).toBeGreaterThanOrEqual(count);
    return (await t.api().get(`${path}/${value.found.id}`).expect(200)).body.data as Conversation;
  };
  const lookupsOf = (senderId: string) =>
    graph.requestsOf('profile').filter((request) => request.path === `/${senderId}`);

  beforeAll(async () => {
    graph = await FakeGraphApi.start();
    recordSecret('integration secret', graph.options.accessToken);
    recordSecret('integration secret', APP_SECRET);
    t = await startTestApp({
      PUBLIC_URL: 'https://console.example.com',
      META_GRAPH_BASE_URL: `${graph.url}/`,
      OUTBOUND_TIMEOUT_MS: String(OUTBOUND_TIMEOUT_MS),
    });
    agents.messenger = await connect('messenger');
    agents.instagram = await connect('instagram');
  });
  afterAll(async () => {
    await repliesSettled(t);
    await t.close();
    await graph.close();
  });

  it("names a Messenger sender after their profile's name, once", async () => {
    const psid = `psid-${++sender}`;
    graph.setProfile(psid, 'Ada Lovelace');
    await send('messenger', psid, 'hello');
    const conversation = await conversationOf('messenger', psid);
    expect(conversation.channel_user_username).toBe('Ada Lovelace');
    expect(conversation.full_name).toBe('Ada Lovelace');
    const [lookup] = lookupsOf(psid);
    expect(lookup.query).toEqual({ fields: 'name' });
    expect(lookup.headers.authorization).toBe(`Bearer ${graph.options.accessToken}`);
    // A trailing slash in META_GRAPH_BASE_URL makes no `//` in the lookup's path.
    expect(lookup.path).toBe(`/${psid}`);

    await send('messenger', psid, 'and again');
    await conversationOf('messenger', psid, 2);
    expect(lookupsOf(psid)).toHaveLength(1);
  });

  it('names an Instagram sender after their name, else their username', async () => {
    const named = `igsid-${++sender}`;
    graph.setProfile(named, 'Grace Hopper', 'grace.h');
    await send('instagram', named, 'hello');
    expect((await conversationOf('instagram', named)).channel_user_username).toBe('Grace Hopper');
    expect(lookupsOf(named)[0].query).toEqual({ fields: 'name,username' });

    const handleOnly = `igsid-${++sender}`;
    graph.setProfile(handleOnly, null, 'ada.codes');
    await send('instagram', handleOnly, 'hello');
    const conversation = await conversationOf('instagram', handleOnly);
    expect(conversation.channel_user_username).toBe('ada.codes');
    expect(conversation.full_name).toBe('ada.codes');
  });

  it('stores the message without a name when the lookup fails, and asks again next time', async () => {
    const unknown = `psid-${++sender}`;
    await send('messenger', unknown, 'hello');
    const refused = await conversationOf('messenger', unknown);
    expect(refused.channel_user_username).toBeNull();
    expect(refused.full_name).toBeNull();

    const failing = `psid-${++sender}`;
    graph.setProfile(failing, 'Later Known');
    graph.failNext('profile', { status: 500 });
    await send('messenger', failing, 'hello');
    expect((await conversationOf('messenger', failing)).channel_user_username).toBeNull();
    await send('messenger', failing, 'still there?');
    expect((await conversationOf('messenger', failing, 2)).channel_user_username).toBe(
      'Later Known',
    );
    expect(lookupsOf(failing)).toHaveLength(2);
  });

  it('takes the message in within the outbound timeout when Meta never answers', async () => {
    const silent = `psid-${++sender}`;
    graph.setProfile(silent, 'Never Seen');
    graph.failNext('profile', { hang: true });
    const started = Date.now();
    await send('messenger', silent, 'hello');
    const conversation = await conversationOf('messenger', silent);
    expect(conversation.channel_user_username).toBeNull();
    expect(Date.now() - started).toBeLessThan(OUTBOUND_TIMEOUT_MS + 5_000);
  });
});
