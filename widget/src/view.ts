import { STYLES } from './styles';
import { Entry } from './types';

export interface ViewHandlers {
  onSend(text: string): void;
  onOpen(): void;
}

const ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z"/></svg>';

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  attributes: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  for (const [name, value] of Object.entries(attributes)) {
    node.setAttribute(name, value);
  }
  return node;
}

/**
 * The widget's DOM, in an open shadow root on its own host element: a launcher, and a panel
 * (dialog) with a header, the message log, a typing line, a status line and the message form.
 * Every text from the server or the visitor goes in with textContent.
 */
export class WidgetView {
  readonly host: HTMLElement;
  private readonly root: HTMLElement;
  private readonly launcher: HTMLButtonElement;
  private readonly panel: HTMLElement;
  private readonly title: HTMLElement;
  private readonly log: HTMLElement;
  private readonly greeting: HTMLElement;
  private readonly typing: HTMLElement;
  private readonly status: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly bubbles = new Map<string, HTMLElement>();

  constructor(private readonly handlers: ViewHandlers) {
    // A custom element name: page rules for div and the like do not match it, and inline
    // !important beats the page's own !important rules on the host.
    this.host = document.createElement('console-chat-widget');
    this.host.setAttribute('style', 'all:initial !important');
    const shadow = this.host.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = STYLES;
    this.root = el('div', 'root');
    this.launcher = el('button', 'launcher', {
      type: 'button',
      'aria-label': 'Open chat',
      'aria-expanded': 'false',
      'aria-controls': 'cw-panel',
    });
    // A constant icon, no data in it.
    this.launcher.innerHTML = ICON;
    this.panel = el('div', 'panel', { id: 'cw-panel', role: 'dialog', 'aria-label': 'Chat' });
    this.panel.hidden = true;
    const header = el('div', 'header');
    this.title = el('h2', 'title', { id: 'cw-title' });
    this.title.textContent = 'Chat';
    const close = el('button', 'close', { type: 'button', 'aria-label': 'Close chat' });
    close.textContent = '×';
    header.append(this.title, close);
    this.log = el('div', 'log', { role: 'log', 'aria-live': 'polite', 'aria-label': 'Messages' });
    this.greeting = el('div', 'bubble greeting');
    this.greeting.hidden = true;
    this.log.append(this.greeting);
    this.typing = el('div', 'typing', { 'aria-live': 'polite' });
    this.status = el('div', 'status', { role: 'status' });
    const form = el('form', 'form');
    const label = el('label', '', { for: 'cw-input' });
    label.textContent = 'Your message';
    this.input = el('textarea', 'input', {
      id: 'cw-input',
      rows: '1',
      maxlength: '4000',
      placeholder: 'Write a message…',
    });
    const send = el('button', 'send', { type: 'submit' });
    send.textContent = 'Send';
    form.append(label, this.input, send);
    this.panel.append(header, this.log, this.typing, this.status, form);
    this.root.append(this.launcher, this.panel);
    shadow.append(style, this.root);

    this.launcher.addEventListener('click', () => (this.panel.hidden ? this.open() : this.close()));
    close.addEventListener('click', () => this.close());
    this.panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        this.close();
      }
    });
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.submit();
      }
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  get isOpen(): boolean {
    return !this.panel.hidden;
  }

  open(): void {
    this.panel.hidden = false;
    this.launcher.setAttribute('aria-expanded', 'true');
    this.launcher.setAttribute('aria-label', 'Close chat');
    this.scrollToEnd();
    this.input.focus();
    this.handlers.onOpen();
  }

  close(): void {
    this.panel.hidden = true;
    this.launcher.setAttribute('aria-expanded', 'false');
    this.launcher.setAttribute('aria-label', 'Open chat');
    this.launcher.focus();
  }

  setTitle(title: string): void {
    this.title.textContent = title;
    this.panel.setAttribute('aria-label', title);
  }

  setGreeting(text: string | null): void {
    this.greeting.textContent = text ?? '';
    this.greeting.hidden = !text;
  }

  setColors(accent: string, onAccent: string): void {
    this.root.style.setProperty('--cw-accent', accent);
    this.root.style.setProperty('--cw-on-accent', onAccent);
  }

  setStatus(text: string | null): void {
    this.status.textContent = text ?? '';
  }

  setTyping(typing: boolean): void {
    const text = typing ? 'typing…' : '';
    if (this.typing.textContent !== text) {
      this.typing.textContent = text;
    }
  }

  /** Brings the log in line with `entries`, reusing each bubble by its key. */
  render(entries: Entry[]): void {
    const atEnd = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 40;
    const keep = new Set(entries.map((entry) => entry.key));
    for (const [key, bubble] of this.bubbles) {
      if (!keep.has(key)) {
        bubble.remove();
        this.bubbles.delete(key);
      }
    }
    let previous: Element = this.greeting;
    for (const entry of entries) {
      let bubble = this.bubbles.get(entry.key);
      if (!bubble) {
        bubble = el('div', '');
        this.bubbles.set(entry.key, bubble);
      }
      this.fill(bubble, entry);
      if (previous.nextElementSibling !== bubble) {
        previous.after(bubble);
      }
      previous = bubble;
    }
    if (atEnd) {
      this.scrollToEnd();
    }
  }

  private fill(bubble: HTMLElement, entry: Entry): void {
    const signature = `${entry.author}|${entry.state}|${entry.name ?? ''}|${entry.text}`;
    if (bubble.dataset.signature === signature) {
      return;
    }
    bubble.dataset.signature = signature;
    bubble.className = `bubble ${entry.author} ${entry.state}`;
    bubble.dataset.id = entry.key;
    bubble.replaceChildren();
    if (entry.name) {
      const name = el('span', 'name');
      name.textContent = entry.name;
      bubble.append(name);
    }
    bubble.append(document.createTextNode(entry.text));
    if (entry.state === 'failed') {
      const note = el('span', 'note');
      note.textContent = 'Not sent.';
      bubble.append(note);
    }
    if (entry.state === 'streaming') {
      bubble.setAttribute('aria-busy', 'true');
    } else {
      bubble.removeAttribute('aria-busy');
    }
  }

  private submit(): void {
    const text = this.input.value.trim();
    if (text === '') {
      return;
    }
    this.input.value = '';
    this.handlers.onSend(text);
  }

  private scrollToEnd(): void {
    this.log.scrollTop = this.log.scrollHeight;
  }
}
