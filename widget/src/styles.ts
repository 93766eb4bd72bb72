/** The widget's styles, inside its shadow root: the page's CSS does not reach in, nor these out. */
export const STYLES = `
:host{all:initial}
.root{--cw-accent:#2563eb;--cw-on-accent:#fff;--cw-text:#111827;--cw-muted:#6b7280;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--cw-text)}
*,*::before,*::after{box-sizing:border-box}
button,textarea{font:inherit;color:inherit}
.launcher{position:fixed;right:20px;bottom:20px;z-index:2147483000;width:56px;height:56px;border:0;border-radius:50%;background:var(--cw-accent);color:var(--cw-on-accent);cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center}
.launcher svg{width:26px;height:26px;fill:currentColor}
.launcher:focus-visible,.close:focus-visible,.send:focus-visible{outline:3px solid #111827;outline-offset:2px}
.panel{position:fixed;right:20px;bottom:88px;z-index:2147483001;width:380px;height:560px;max-height:calc(100vh - 108px);display:flex;flex-direction:column;background:#fff;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.25);overflow:hidden}
.panel[hidden]{display:none}
.header{display:flex;align-items:center;gap:8px;padding:12px 14px;background:var(--cw-accent);color:var(--cw-on-accent)}
.title{flex:1;margin:0;font-size:16px;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.close{border:0;background:transparent;color:inherit;cursor:pointer;font-size:22px;line-height:1;width:36px;height:36px;border-radius:6px}
.log{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:8px;background:#f9fafb}
.bubble{max-width:85%;padding:8px 12px;border-radius:12px;white-space:pre-wrap;overflow-wrap:anywhere;background:#fff;border:1px solid #e5e7eb;align-self:flex-start}
.bubble.customer{align-self:flex-end;background:var(--cw-accent);border-color:transparent;color:var(--cw-on-accent)}
.bubble.greeting{background:#fff}
.bubble.sending{opacity:.7}
.bubble.failed{border:1px solid #dc2626}
.name{display:block;font-size:12px;font-weight:600;color:var(--cw-muted);margin-bottom:2px}
.note{display:block;font-size:12px;margin-top:2px}
.typing{padding:0 14px 6px;font-size:12px;color:var(--cw-muted);min-height:1.45em;background:#f9fafb}
.status{padding:6px 14px;font-size:12px;color:#b91c1c;background:#fef2f2}
.status:empty{display:none}
.form{display:flex;gap:8px;align-items:flex-end;padding:10px;border-top:1px solid #e5e7eb;background:#fff}
.form label{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.input{flex:1;resize:none;min-height:40px;max-height:120px;padding:9px 10px;border:1px solid #d1d5db;border-radius:8px;background:#fff}
.input:focus{outline:2px solid var(--cw-accent);outline-offset:0}
.send{border:0;border-radius:8px;padding:0 14px;height:40px;background:var(--cw-accent);color:var(--cw-on-accent);cursor:pointer;font-weight:600}
@media (max-width:480px){.panel{left:0;right:0;bottom:0;top:0;width:100%;height:100%;max-height:none;border-radius:0}}
`;
