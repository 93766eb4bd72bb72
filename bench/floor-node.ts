import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/** Baseline "floor-node": bare node:http answering the captured workflow envelope, byte for byte. */
const body = readFileSync(process.env.BENCH_BODY_FILE ?? '');
const port = Number(process.env.PORT);

createServer((_req, res) => {
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': body.length,
  });
  res.end(body);
}).listen(port, '127.0.0.1');
