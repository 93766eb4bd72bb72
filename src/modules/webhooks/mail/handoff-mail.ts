import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import { isCallableAddress } from '@/common/outbound/address-policy';
import { AppConfig } from '@/config/app-config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends hand-off notices through SMTP_URL. SMTP is not HTTP, so this cannot go through
 * OutboundHttp's fetch; it applies the same outbound address policy itself instead: the host is
 * resolved here, every address checked, and the connection made to the checked address (TLS
 * still verifies the name), so a name that resolves somewhere forbidden is never connected to.
 */
@Injectable()
export class HandoffMail {
  private readonly url: URL | undefined;
  private readonly from: string;
  private readonly allowPrivate: boolean;
  private readonly timeoutMs: number;

  constructor(config: AppConfig) {
    this.url = config.mail.smtpUrl ? new URL(config.mail.smtpUrl) : undefined;
    this.from = config.mail.from;
    this.allowPrivate = config.outbound.allowPrivate;
    this.timeoutMs = config.outbound.timeoutMs;
  }

  get configured(): boolean {
    return this.url !== undefined;
  }

  async send(message: MailMessage): Promise<void> {
    if (!this.url) {
      throw new Error('SMTP_URL is not set');
    }
    const secure = this.url.protocol === 'smtps:';
    const hostname = this.url.hostname.replace(/^\[|\]$/g, '');
    // Loaded with the first notice: most instances never send one (start-up time).
    const { createTransport } = await import('nodemailer');
    const transport = createTransport({
      host: await this.checkedAddress(hostname),
      port: Number(this.url.port) || (secure ? 465 : 587),
      secure,
      auth: this.url.username
        ? {
            user: decodeURIComponent(this.url.username),
            pass: decodeURIComponent(this.url.password),
          }
        : undefined,
      tls: isIP(hostname) ? undefined : { servername: hostname },
      connectionTimeout: this.timeoutMs,
      greetingTimeout: this.timeoutMs,
      socketTimeout: this.timeoutMs,
    });
    try {
      await transport.sendMail({ from: this.from, ...message });
    } finally {
      transport.close();
    }
  }

  private async checkedAddress(hostname: string): Promise<string> {
    const addresses = isIP(hostname)
      ? [hostname]
      : (await dns.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
    const refused = addresses.find((address) => !isCallableAddress(address, this.allowPrivate));
    if (addresses.length === 0 || refused) {
      throw new Error(`SMTP host ${hostname} resolves to an address outbound calls may not reach`);
    }
    return addresses[0];
  }
}
