import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { ApiKeysService } from './api-keys.service';
import { FirstKeyDelivery, firstKeyDelivery, writeFirstKeyFile } from './first-key-delivery';
import { TeamsService } from './teams.service';

const DEFAULT_TEAM = 'default';

const CLI_CREATE = `node dist/cli.js keys create --team ${DEFAULT_TEAM} --scopes '*'`;

/**
 * Makes sure a fresh installation can be used at once: `CONSOLE_BOOTSTRAP_KEY` becomes a working
 * `*` key of team `default` (unless it was revoked, which stays so); with no key anywhere and no
 * such setting, one is made and handed over once, never through the logs (see FirstKeyDelivery).
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
    const team = await this.teams.ensure(DEFAULT_TEAM);
    if (this.config.auth.bootstrapKey) {
      await this.ensureBootstrapKey(team.id, this.config.auth.bootstrapKey);
    } else {
      await this.createFirstKey(team.id);
    }
  }

  private async ensureBootstrapKey(teamId: string, key: string): Promise<void> {
    const kept = await this.db.transaction(async () => {
      await this.db.lockRow('teams', teamId);
      return this.apiKeys.ensureKey(teamId, key, ['*']);
    });
    if (kept) {
      this.logger.log(`Bootstrap key ensured for team "${DEFAULT_TEAM}"`);
    } else {
      this.logger.warn(
        'CONSOLE_BOOTSTRAP_KEY names a key that was revoked; it stays revoked. ' +
          'Create a new key with the admin CLI, or set CONSOLE_BOOTSTRAP_KEY to another key.',
      );
    }
  }

  private async createFirstKey(teamId: string): Promise<void> {
    const delivery = firstKeyDelivery(this.config.database.url, Boolean(process.stdout.isTTY));
    const outcome = await this.db.transaction(async () => {
      await this.db.lockRow('teams', teamId);
      if ((await this.apiKeys.count()) > 0) {
        return 'keys exist';
      }
      if (!delivery) {
        return 'nowhere to show it';
      }
      const { key } = await this.apiKeys.create(teamId, ['*']);
      // Within the transaction: a file that cannot be written leaves no key nobody can read.
      if (delivery.to === 'file') {
        writeFirstKeyFile(delivery.path, key);
      }
      return { key };
    });
    if (outcome === 'nowhere to show it') {
      this.logger.warn(
        'No API key exists yet, and none was made: stdout is not a terminal and PostgreSQL has ' +
          'no data directory to write one to. Set CONSOLE_BOOTSTRAP_KEY, or create one with the ' +
          `admin CLI: ${CLI_CREATE}`,
      );
    } else if (outcome !== 'keys exist') {
      this.handOver(outcome.key, delivery!);
    }
  }

  private handOver(key: string, delivery: NonNullable<FirstKeyDelivery>): void {
    const created = `No API key existed, so one was created for team "${DEFAULT_TEAM}" with scope "*"`;
    if (delivery.to === 'file') {
      this.logger.log(
        { file: delivery.path },
        `${created}. It is in ${delivery.path}, readable by this user only: ` +
          'keep it somewhere safe, then delete the file',
      );
      return;
    }
    // stdout is a terminal here, not log storage; the logger never sees the key.
    process.stdout.write(
      `\n${created}.\nIt is shown only this once; keep it somewhere safe:\n\n    ${key}\n\n`,
    );
  }
}
