import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { withClientSpan } from './client-span';

describe('withClientSpan', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  it('sends the request unchanged while tracing is off', async () => {
    const call = jest.fn(async () => new Response('ok'));
    const init = { method: 'POST', headers: { 'x-a': '1' } };
    await withClientSpan(new URL('https://api.example.com/v1/x?token=secret'), init, call);
    expect(call).toHaveBeenCalledWith(init);
  });

  describe('with tracing on', () => {
    beforeAll(() => provider.register());
    afterAll(() => provider.shutdown());
    afterEach(() => exporter.reset());

    it('records a client span in the current trace, and carries the trace on in traceparent', async () => {
      const call = jest.fn(async (_init: RequestInit) => new Response('ok', { status: 201 }));
      await trace.getTracer('test').startActiveSpan('request', async (span) => {
        await withClientSpan(
          new URL('https://api.example.com/v1/orders?token=secret'),
          { method: 'post', headers: { 'x-a': '1' } },
          call,
        );
        span.end();
      });
      const sent = call.mock.calls[0][0].headers as Record<string, string>;
      expect(sent['x-a']).toBe('1');
      const [client, request] = exporter.getFinishedSpans();
      expect(sent.traceparent).toBe(
        `00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`,
      );
      expect(client.spanContext().traceId).toBe(request.spanContext().traceId);
      expect(client.kind).toBe(SpanKind.CLIENT);
      expect(client.name).toBe('POST');
      expect(client.attributes).toEqual({
        'http.request.method': 'POST',
        'server.address': 'api.example.com',
        'url.full': 'https://api.example.com/v1/orders',
        'http.response.status_code': 201,
      });
    });

    it('marks a failed call as an error', async () => {
      await expect(
        withClientSpan(new URL('https://down.example.com/'), {}, async () => {
          throw new Error('connect ECONNREFUSED');
        }),
      ).rejects.toThrow('ECONNREFUSED');
      const [span] = exporter.getFinishedSpans();
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'connect ECONNREFUSED' });
    });
  });
});
