import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { ApiKeysService } from './api-keys.service';
import { TeamsService } from './teams.service';

const DEFAULT_TEAM = 'default';

/**
 * Makes sure a fresh installation can be used at once: `CONSOLE_BOOTSTRAP_KEY` becomes a working
 * `*` key of team `default` (unless it was revoked, which stays so); with no key anywhere and no such setting, one is made and shown once.
 * Instances starting together take turns on the team's row, so this happens once.
 */
@Injectable()
export class BootstrapKeyService implements OnApplicationBootstrap {
  private readonly logger = new Logger(BootstrapKeyService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly db: Database,
    private readonly teams: TeamsService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const bootstrapKey = this.config.auth.bootstrapKey;
    const team = await this.teams.ensure(DEFAULT_TEAM);
    let bootstrapKeyRevoked = false;
    const created = await this.db.transaction(async () => {
      await this.db.lockRow('teams', team.id);
      if (bootstrapKey) {
        bootstrapKeyRevoked = !(await this.apiKeys.ensureKey(team.id, bootstrapKey, ['*']));
        return null;
      }
      return (await this.apiKeys.count()) > 0
        ? null
        : (await this.apiKeys.create(team.id, ['*'])).key;
    });
    if (bootstrapKeyRevoked) {
      this.logger.warn(
        'CONSOLE_BOOTSTRAP_KEY names a key that was revoked; it stays revoked. ' +
          'Create a new key with the admin CLI, or set CONSOLE_BOOTSTRAP_KEY to another key.',
      );
    } else if (bootstrapKey) {
      this.logger.log('Bootstrap key ensured for team "default"');
    }
    if (created) {
      // Shown once, on stdout and never through the logger, so it does not end up in log storage.
      process.stdout.write(
        `\nNo API key existed, so one was created for team "default" with scope "*".\n` +
          `It is shown only this once; keep it somewhere safe:\n\n    ${created}\n\n`,
      );
    }
  }
}
