import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpException } from '@nestjs/common';
import { toErrorResponse } from '../http/error-response';
import { REQUEST_ID_HEADER } from '../http/request-id';

const PARSER_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request headers are larger than the size limit'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive'],
};

/**
 * Requests Node's HTTP parser rejects never reach the application; Node would answer them with a
 * bare status line. They get the contract's error body instead, with Node's status: 431 for
 * headers over the size limit, 408 for a request that took too long, 400 for anything else.
 */
export function answerClientErrorsWithContractBody(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, message] = PARSER_ERRORS[error.code ?? ''] ?? [400, 'Malformed HTTP request'];
    const requestId = randomUUID();
    const text = JSON.stringify(
      toErrorResponse(new HttpException(message, status), requestId).body,
    );
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(text)}\r\n` +
        `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        text,
    );
  });
}
