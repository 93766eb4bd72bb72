import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Environment } from '@/config/environment';
import { ApiKeysService } from './api-keys.service';
import { TeamsService } from './teams.service';

export const DEFAULT_TEAM = 'default';

/**
 * Makes sure a fresh installation can be used at once: `CONSOLE_BOOTSTRAP_KEY` becomes a working
 * `*` key of team `default`; with no key anywhere and no such setting, one is made and shown once.
 */
@Injectable()
export class BootstrapKeyService implements OnApplicationBootstrap {
  private readonly logger = new Logger(BootstrapKeyService.name);

  constructor(
    private readonly config: ConfigService<Environment, true>,
    private readonly teams: TeamsService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const bootstrapKey = this.config.get('CONSOLE_BOOTSTRAP_KEY', { infer: true });
    if (bootstrapKey) {
      const team = await this.teams.ensure(DEFAULT_TEAM);
      await this.apiKeys.ensureKey(team.id, bootstrapKey, ['*']);
      this.logger.log('Bootstrap key ensured for team "default"');
      return;
    }
    if ((await this.apiKeys.count()) > 0) {
      return;
    }
    const team = await this.teams.ensure(DEFAULT_TEAM);
    const { key } = await this.apiKeys.create(team.id, ['*']);
    // Shown once, on stdout and never through the logger, so it does not end up in log storage.
    process.stdout.write(
      `\nNo API key existed, so one was created for team "default" with scope "*".\n` +
        `It is shown only this once; keep it somewhere safe:\n\n    ${key}\n\n`,
    );
  }
}
