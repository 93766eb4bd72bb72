import type { ApiError } from '@/common/http/api-error';
import type { Principal } from '@/common/http/principal';
import type { AgentChannelEntity } from '@/modules/agents/entities/agent-channel.entity';
import type { PreparedStream } from '@/modules/conversations/stream/prepared-stream';

declare global {
  namespace Express {
    interface Request {
      /** Set by the API-key guard once the key is accepted. */
      principal?: Principal;
      /** A body that could not be read; reported after authentication (see json-body.ts). */
      bodyError?: ApiError;
      /** The W3C trace id of the request, when it has one (trace-context.middleware.ts). */
      traceId?: string;
      /** Set by StreamAccessGuard once the stream passed its checks and holds a slot. */
      preparedStream?: PreparedStream;
      /** Set by WidgetKeyGuard: the web chat a publishable key names, the origin allowed by it. */
      widgetChannel?: AgentChannelEntity;
      /** The body's bytes as sent, on the channels' webhooks (json-body.ts): signed by the provider. */
      rawBody?: Buffer;
    }
  }
}
