import { ApiError, describeError, WidgetApi } from './api';
import { ScriptConfig, textColorOn, TokenStore, validColor } from './script-config';
import { MessageStore, TYPING_TIMEOUT_MS } from './store';
import { StreamAction, StreamClient } from './stream';
import { WidgetView } from './view';

const MAX_MESSAGE_LENGTH = 4000;

/** The widget at work: the session, the history, sending, and the live stream, drawn by the view. */
export class Widget {
  private readonly api: WidgetApi;
  private readonly tokens: TokenStore;
  private readonly store = new MessageStore();
  private readonly view: WidgetView;
  private readonly stream: StreamClient;
  private session: Promise<string | null> | null = null;
  private conversationId: string | null = null;
  private typingTimer: number | undefined;

  constructor(config: ScriptConfig) {
    this.api = new WidgetApi(config.apiBase, config.key);
    this.tokens = TokenStore.forKey(config.key);
    this.view = new WidgetView({
      onSend: (text) => void this.send(text),
      onOpen: () => this.render(),
    });
    this.stream = new StreamClient({
      ticket: async () => {
        const token = await this.token();
        if (!token) {
          throw new ApiError(0, 'No session.');
        }
        return (await this.api.streamTicket(token)).ticket;
      },
      url: (ticket, after) => this.api.streamUrl(ticket, after),
      open: (url) => new EventSource(url),
      lastId: () => this.store.lastId(),
      onAction: (action) => this.onStream(action),
      // Whatever came between the history (or the last stream) and this one, in case the server
      // did not replay it from `after`; duplicates are dropped by id.
      onOpen: () => void this.loadMessages(this.store.lastId()),
      onTrouble: (error) => this.showError(error),
      setTimer: (callback, ms) => window.setTimeout(callback, ms),
      clearTimer: (handle) => window.clearTimeout(handle as number),
      // Three heartbeats (20 s apart by default) missed.
      silenceMs: 65_000,
    });
  }

  mount(): void {
    document.body.append(this.view.host);
    void this.loadConfig();
    void this.start();
  }

  private async loadConfig(): Promise<void> {
    try {
      const config = await this.api.config();
      this.view.setTitle(config.title);
      this.view.setGreeting(config.greeting);
      const color = validColor(config.color);
      if (color) {
        this.view.setColors(color, textColorOn(color));
      }
    } catch (error) {
      this.showError(error);
    }
  }

  private async start(): Promise<void> {
    const token = await this.token();
    if (token && this.conversationId) {
      await this.loadMessages(null);
      this.stream.start();
    }
  }

  /** The visitor token, from a session started once (reusing the stored token when valid). */
  private token(): Promise<string | null> {
    if (!this.session) {
      this.session = this.api
        .session(this.tokens.get())
        .then((session) => {
          this.tokens.set(session.visitor_token);
          this.conversationId = session.conversation_id;
          return session.visitor_token;
        })
        .catch((error: unknown) => {
          this.session = null;
          this.showError(error);
          return null;
        });
    }
    return this.session;
  }

  private async loadMessages(after: string | null): Promise<void> {
    const token = await this.token();
    if (!token) {
      return;
    }
    try {
      const messages = await this.api.messages(token, after);
      messages.forEach((message) => this.store.add(message));
      this.render();
    } catch (error) {
      this.showError(error);
    }
  }

  private async send(text: string): Promise<void> {
    if (text.length > MAX_MESSAGE_LENGTH) {
      this.view.setStatus(`Messages are at most ${MAX_MESSAGE_LENGTH} characters.`);
      return;
    }
    const key = this.store.addLocal(text);
    this.render();
    const token = await this.token();
    if (!token) {
      this.store.failLocal(key);
      this.render();
      return;
    }
    try {
      const message = await this.api.send(token, text);
      this.store.confirmLocal(key, message);
      this.store.startTyping();
      this.view.setStatus(null);
      this.conversationId = message.conversation_id;
      this.stream.start();
    } catch (error) {
      this.store.failLocal(key);
      this.showError(error);
      if (error instanceof ApiError && error.status === 401) {
        // The stored visitor token is no longer valid: the next message starts a new session.
        this.tokens.clear();
        this.session = null;
      }
    }
    this.render();
  }

  private onStream(action: StreamAction): void {
    switch (action.kind) {
      case 'message':
        this.store.add(action.message);
        break;
      case 'delta':
        this.store.applyDelta(action.delta);
        break;
      case 'heartbeat':
        return;
    }
    this.render();
  }

  private render(): void {
    const entries = this.store.entries();
    this.view.render(entries);
    const typing = this.store.isTyping();
    this.view.setTyping(typing);
    window.clearTimeout(this.typingTimer);
    if (typing || entries.some((entry) => entry.state === 'streaming')) {
      // Re-render when "typing…" times out, or when a stale streamed bubble should go.
      this.typingTimer = window.setTimeout(() => this.render(), TYPING_TIMEOUT_MS + 50);
    }
  }

  private showError(error: unknown): void {
    this.view.setStatus(error === null ? null : describeError(error));
  }
}
