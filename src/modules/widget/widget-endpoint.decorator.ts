import { applyDecorators, HttpCode, Type, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  ApiEnvelope,
  ApiErrorResponse,
  ApiErrors,
  ApiHeadersTooLarge,
  ErrorStatus,
} from '@/common/http/api-docs.decorators';
import { ResponseMessage } from '@/common/http/response-message.decorator';
import { WidgetKeyGuard } from './widget-key.guard';

interface WidgetEndpointOptions {
  summary: string;
  message: string;
  response: Type<unknown>;
  status?: number;
  paginated?: boolean;
  errors?: ErrorStatus[];
}

/**
 * A route of the widget's public API: no API key, a publishable key and an allowed Origin instead
 * (WidgetKeyGuard), the usual envelope.
 */
export const WidgetEndpoint = (options: WidgetEndpointOptions) =>
  applyDecorators(
    UseGuards(WidgetKeyGuard),
    ApiOperation({
      summary: options.summary,
      description:
        'Public: `Authorization: Bearer pk_…` (a web chat publishable key) and an `Origin` the ' +
        'chat allows (else 403); no API key.',
    }),
    ResponseMessage(options.message),
    ApiEnvelope(options.response, {
      status: options.status ?? 200,
      paginated: options.paginated ?? false,
    }),
    ApiErrors(400, 403, ...(options.errors ?? [])),
    ApiErrorResponse(401, 'unauthorized: no publishable key, or an unknown one'),
    ApiErrorResponse(429, 'too_many_requests: WIDGET_RATE_LIMIT_MAX, or the rate limit'),
    ApiHeadersTooLarge(),
    HttpCode(options.status ?? 200),
  );
