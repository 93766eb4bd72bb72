import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * `npm run demo:widget`: a page on http://127.0.0.1:<port> that embeds the web-chat widget the way
 * a customer's site does, to try a webchat channel by hand. Only 127.0.0.1 is bound.
 *
 *   npm run demo:widget -- --key pk_… [--api http://127.0.0.1:3000] [--port 5173]
 *   WIDGET_KEY=pk_… WIDGET_API_BASE=… WIDGET_DEMO_PORT=… npm run demo:widget
 */
export interface DemoOptions {
  apiBase: string;
  key: string;
  port: number;
}

export function demoOptions(argv: string[], env: NodeJS.ProcessEnv): DemoOptions {
  const arg = (name: string) => {
    const index = argv.indexOf(`--${name}`);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const apiBase = (arg('api') ?? env.WIDGET_API_BASE ?? 'http://127.0.0.1:3000').replace(
    /\/+$/,
    '',
  );
  const key = arg('key') ?? env.WIDGET_KEY ?? '';
  const port = Number(arg('port') ?? env.WIDGET_DEMO_PORT ?? 5173);
  if (!/^https?:\/\/[^\s"'<>]+$/.test(apiBase)) {
    throw new Error(
      `--api / WIDGET_API_BASE must be an http(s) URL, not ${JSON.stringify(apiBase)}`,
    );
  }
  if (!/^pk_[\w-]+$/.test(key)) {
    throw new Error("--key / WIDGET_KEY must be the webchat channel's publishable key (pk_…)");
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port / WIDGET_DEMO_PORT must be a port number, not ${String(port)}`);
  }
  return { apiBase, key, port };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function demoPage(options: Pick<DemoOptions, 'apiBase' | 'key'>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Widget demo</title>
<style>
  /* Page styles that must not reach the widget (it renders in a shadow root). */
  body { font: 16px/1.5 Georgia, serif; margin: 2rem; color: #333; }
  button, textarea, div { border: 3px dashed red !important; font-family: monospace !important; }
</style>
</head>
<body>
<h1>A shop page</h1>
<p>The chat launcher is at the bottom right. API: <code>${escapeHtml(options.apiBase)}</code></p>
<script src="${escapeHtml(options.apiBase)}/widget.js" data-key="${escapeHtml(options.key)}" async></script>
</body>
</html>
`;
}

export function serveDemo(options: DemoOptions): Promise<Server> {
  const page = demoPage(options);
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url !== '/' && req.url !== '/index.html')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(page);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve(server));
  });
}

async function main(): Promise<void> {
  const options = demoOptions(process.argv.slice(2), process.env);
  const server = await serveDemo(options);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  console.log(`Widget demo page: ${origin}/`);
  console.log(`It loads ${options.apiBase}/widget.js with data-key=${options.key}.`);
  console.log(
    `The webchat channel must allow this page's origin: connect it with ` +
      `{ "allowed_origins": ["${origin}"] } (POST /api/v1/console/agents/{id}/channels/webchat/connect).`,
  );
  console.log('Ctrl+C stops it.');
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
