import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface EmbedPage {
  /** The page's address, http://127.0.0.1:<port>/ */
  url: string;
  /** Its origin, as the web chat's allowed_origins lists it. */
  origin: string;
  /** The port, to reach the same page from another origin (http://localhost:<port>/). */
  port: number;
  /** What the page embeds before </body> (the connect answer's embed_snippet). */
  embed(html: string): void;
  close(): Promise<void>;
}

/**
 * A customer's site: a static page on 127.0.0.1:<free port> that pastes the web chat's
 * embed_snippet as given, with page styles that must not reach the widget (a shadow root). The
 * snippet is known only once the chat is connected with this page's origin, hence `embed()`.
 */
export async function startEmbedPage(): Promise<EmbedPage> {
  let snippet = '';
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url !== '/' && req.url !== '/index.html')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>A shop</title>
<style>
  body { font: 16px/1.5 Georgia, serif; margin: 2rem; color: #333; }
  button, textarea, div { border: 3px dashed red !important; font-family: monospace !important; }
</style>
</head>
<body>
<h1>A shop page</h1>
<p>It embeds the web chat's snippet as the console gave it.</p>
${snippet}
</body>
</html>
`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    origin: `http://127.0.0.1:${port}`,
    port,
    embed: (html) => (snippet = html),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
