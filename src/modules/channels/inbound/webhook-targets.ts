import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { Errors } from '@/common/http/api-error';
import { isId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { ProviderChannels, TEST_NUMBER_CHANNEL_ID } from '@/modules/agents/provider-channels.service';
import { testNumberJob, TestNumberInboundWorker } from '../test-number/test-number-inbound.worker';
import { TestNumberRepository } from '../test-number/test-number.repository';
import { ChannelInboundRepository } from './channel-inbound.repository';
import { ChannelInboundWorker } from './channel-inbound.worker';

/** Where a webhook's notifications go, and the secrets they are checked with. */
export interface WebhookTarget {
  secrets: Record<string, string>;
  /** Keeps a signed notification and schedules its processing. */
  keep(body: string): Promise<void>;
}

/**
 * The channel a webhook URL names (docs/api.md §4d): a connected WhatsApp, Messenger or Instagram
 * channel by its id, or the shared test number by `test-whatsapp` while it is configured; 404
 * otherwise. A notification's signed target is remembered for its request (MetaSignatureGuard).
 */
@Injectable()
export class WebhookTargets {
  private readonly signed = new WeakMap<Request, WebhookTarget>();

  constructor(
    private readonly db: Database,
    private readonly channels: ProviderChannels,
    private readonly inbound: ChannelInboundRepository,
    private readonly worker: ChannelInboundWorker,
    private readonly testNumber: TestNumberRepository,
    private readonly testNumberWorker: TestNumberInboundWorker,
  ) {}

  async find(channelId: string): Promise<WebhookTarget> {
    const target =
      channelId === TEST_NUMBER_CHANNEL_ID
        ? this.testNumberTarget()
        : await this.channelTarget(channelId);
    if (!target) {
      throw Errors.notFound('Channel not found');
    }
    return target;
  }

  rememberSigned(req: Request, target: WebhookTarget): void {
    this.signed.set(req, target);
  }

  /** The target whose signature the request carried; only a guarded route asks. */
  signedFor(req: Request): WebhookTarget {
    const target = this.signed.get(req);
    if (!target) {
      throw new Error('A webhook notification reached its handler unchecked');
    }
    return target;
  }

  private async channelTarget(channelId: string): Promise<WebhookTarget | null> {
    const found = isId(channelId) ? await this.channels.metaChannel(channelId.toLowerCase()) : null;
    return (
      found && {
        secrets: found.secrets,
        keep: async (body) => {
          const { teamId, id } = found.channel;
          const row = await this.db.transaction(() => this.inbound.insert(teamId, id, body));
          this.worker.schedule({ id: row.id, teamId: row.teamId });
        },
      }
    );
  }

  private testNumberTarget(): WebhookTarget | null {
    const testNumber = this.channels.testNumber();
    return (
      testNumber && {
        secrets: testNumber.secrets,
        keep: async (body) => {
          const row = await this.db.transaction(() => this.testNumber.insert(body));
          this.testNumberWorker.schedule(testNumberJob(row.id));
        },
      }
    );
  }
}
