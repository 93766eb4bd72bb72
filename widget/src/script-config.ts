/** What the embedding `<script src=".../widget.js" data-key="pk_…">` tells the widget. */
export interface ScriptConfig {
  key: string;
  /** The API's origin: where widget.js itself was loaded from. */
  apiBase: string;
}

/** The widget's own script tag: the running one, else the first one that carries a key. */
export function findScript(doc: Document): HTMLScriptElement | null {
  const current = doc.currentScript;
  if (current instanceof HTMLScriptElement && current.dataset.key) {
    return current;
  }
  return (
    doc.querySelector<HTMLScriptElement>('script[data-key^="pk_"][src*="widget.js"]') ??
    doc.querySelector<HTMLScriptElement>('script[data-key][src]')
  );
}

export function readScriptConfig(
  script: { src: string; getAttribute(name: string): string | null } | null,
  pageUrl: string,
): ScriptConfig | null {
  const key = script?.getAttribute('data-key')?.trim() ?? '';
  if (!script || !/^pk_[\w-]+$/.test(key)) {
    return null;
  }
  try {
    const src = new URL(script.src, pageUrl);
    if (src.protocol !== 'https:' && src.protocol !== 'http:') {
      return null;
    }
    return { key, apiBase: src.origin };
  } catch {
    return null;
  }
}

/** `#rrggbb` only: anything else from the server is not put into the page's styles. */
export function validColor(value: string | null | undefined): string | null {
  return typeof value === 'string' && /^#[0-9a-fA-F]{6}$/.test(value) ? value : null;
}

/** Text color readable on `color` (#rrggbb): dark on light accents, white on dark ones. */
export function textColorOn(color: string): string {
  const channel = (offset: number) => {
    const value = parseInt(color.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.4 ? '#111827' : '#ffffff';
}

/** localStorage may be missing or throw (privacy modes): the session then lasts the page. */
export class TokenStore {
  private memory: string | null = null;

  constructor(
    private readonly key: string,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null,
  ) {}

  static forKey(publishableKey: string): TokenStore {
    let storage: Storage | null = null;
    try {
      storage = window.localStorage;
    } catch {
      storage = null;
    }
    return new TokenStore(`console-widget:${publishableKey}:visitor`, storage);
  }

  get(): string | null {
    try {
      return this.storage?.getItem(this.key) ?? this.memory;
    } catch {
      return this.memory;
    }
  }

  set(token: string): void {
    this.memory = token;
    try {
      this.storage?.setItem(this.key, token);
    } catch {
      // kept in memory only
    }
  }

  clear(): void {
    this.memory = null;
    try {
      this.storage?.removeItem(this.key);
    } catch {
      // nothing stored
    }
  }
}
