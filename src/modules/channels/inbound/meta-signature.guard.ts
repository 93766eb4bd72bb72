import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { Errors } from '@/common/http/api-error';
import { metaSignatureValid } from '../meta/webhook-payloads';
import { WebhookTargets } from './webhook-targets';

/**
 * Checks a notification's X-Hub-Signature-256 against the app secret of the channel its URL
 * names, over the raw bytes, in constant time (docs/api.md §4d): unknown channel 404, missing or
 * wrong signature 401. It runs before the body is judged, so an unsigned body says nothing of how
 * it would have been read.
 */
@Injectable()
export class MetaSignatureGuard implements CanActivate {
  constructor(private readonly targets: WebhookTargets) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const target = await this.targets.find(String(req.params.channelId));
    const signature = req.headers['x-hub-signature-256'];
    if (
      !req.rawBody ||
      !metaSignatureValid(
        req.rawBody,
        typeof signature === 'string' ? signature : undefined,
        target.secrets.app_secret ?? '',
      )
    ) {
      throw Errors.unauthorized('Missing or wrong X-Hub-Signature-256');
    }
    this.targets.rememberSigned(req, target);
    return true;
  }
}
