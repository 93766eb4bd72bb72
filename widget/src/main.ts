import { findScript, readScriptConfig } from './script-config';
import { Widget } from './widget';

/** Entry of widget.js: reads its own script tag, then mounts once the page's body exists. */
function boot(): void {
  const w = window as Window & { __consoleWidgetLoaded?: boolean };
  if (w.__consoleWidgetLoaded) {
    return;
  }
  const config = readScriptConfig(findScript(document), document.baseURI);
  if (!config) {
    console.warn('widget.js: no data-key="pk_…" on its <script> tag; the chat is not shown.');
    return;
  }
  w.__consoleWidgetLoaded = true;
  const mount = () => new Widget(config).mount();
  if (document.body) {
    mount();
  } else {
    document.addEventListener('DOMContentLoaded', mount, { once: true });
  }
}

try {
  boot();
} catch (error) {
  console.warn('widget.js could not start:', error);
}
