import { readScriptConfig, textColorOn, TokenStore, validColor } from './script-config';

const script = (src: string, key: string | null) => ({
  src,
  getAttribute: (name: string) => (name === 'data-key' ? key : null),
});

describe('the script tag', () => {
  it('gives the key and the API origin the script came from', () => {
    expect(
      readScriptConfig(
        script('https://api.example/widget.js?v=2', 'pk_abc'),
        'https://shop.example/',
      ),
    ).toEqual({ key: 'pk_abc', apiBase: 'https://api.example' });
  });

  it('resolves a relative src against the page', () => {
    expect(readScriptConfig(script('/widget.js', 'pk_abc'), 'http://127.0.0.1:5173/x')).toEqual({
      key: 'pk_abc',
      apiBase: 'http://127.0.0.1:5173',
    });
  });

  it('refuses a missing or malformed key', () => {
    expect(
      readScriptConfig(script('https://api.example/widget.js', null), 'https://a/'),
    ).toBeNull();
    expect(
      readScriptConfig(script('https://api.example/widget.js', 'sk_x'), 'https://a/'),
    ).toBeNull();
    expect(readScriptConfig(null, 'https://a/')).toBeNull();
  });
});

describe('colors', () => {
  it('takes #rrggbb only', () => {
    expect(validColor('#a1B2c3')).toBe('#a1B2c3');
    for (const bad of ['red', '#abc', '#a1b2c3;background:url(x)', '', null, undefined]) {
      expect(validColor(bad)).toBeNull();
    }
  });

  it('writes dark text on light accents and white on dark ones', () => {
    expect(textColorOn('#ffff00')).toBe('#111827');
    expect(textColorOn('#1e3a8a')).toBe('#ffffff');
  });
});

describe('TokenStore', () => {
  it('keeps the visitor token under its own key', () => {
    const items = new Map<string, string>();
    const storage = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    };
    const tokens = new TokenStore('k', storage);
    tokens.set('v1');
    expect(new TokenStore('k', storage).get()).toBe('v1');
    tokens.clear();
    expect(tokens.get()).toBeNull();
  });

  it('falls back to memory when storage throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => undefined,
    };
    const tokens = new TokenStore('k', broken);
    tokens.set('v1');
    expect(tokens.get()).toBe('v1');
  });
});
