import { Injectable } from '@nestjs/common';
import { InvalidArgumentError } from 'commander';
import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import { isId } from '@/common/ids';
import { ApiKeysService } from '../api-keys.service';
import { ApiKeyEntity } from '../entities/api-key.entity';
import { TeamEntity } from '../entities/team.entity';
import { isScope, Scope, SCOPES } from '../scopes';
import { TeamsService } from '../teams.service';
import { cliOutput, parseDuration } from '@/common/cli/cli-output';

interface KeysCreateOptions {
  team: string;
  scopes: Scope[];
  expiresAt?: Date;
  json?: boolean;
}

interface KeysRotateOptions {
  grace: number;
  expiresAt?: Date;
  json?: boolean;
}

interface KeysListOptions {
  team: string;
  json?: boolean;
}

function parseExpiresAt(value: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError('expected an ISO-8601 date-time such as 2027-01-31T00:00:00Z');
  }
  return date;
}

function keyState(key: ReturnType<typeof describeKey>): string {
  if (key.revoked_at) {
    return `revoked ${key.revoked_at}`;
  }
  if (key.expires_at) {
    return `${Date.parse(key.expires_at) <= Date.now() ? 'expired' : 'expires'} ${key.expires_at}`;
  }
  return 'active';
}

function describeKey(key: ApiKeyEntity) {
  return {
    id: key.id,
    team_id: key.teamId,
    prefix: key.keyPrefix,
    scopes: key.scopes,
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
  };
}

/** A subcommand about one team's keys: it runs once the team named by `--team` is found. */
@Injectable()
abstract class TeamKeysCommand<O extends { team: string }> extends CommandRunner {
  constructor(
    private readonly teams: TeamsService,
    protected readonly apiKeys: ApiKeysService,
  ) {
    super();
  }

  async run(_: string[], options: O): Promise<void> {
    const team = await this.teams.findByName(options.team);
    if (!team) {
      cliOutput.fail(`no team named "${options.team}"`);
      return;
    }
    await this.runFor(team, options);
  }

  protected abstract runFor(team: TeamEntity, options: O): Promise<void>;
}

@SubCommand({ name: 'create', description: 'Create an API key; the key is printed once' })
export class KeysCreateCommand extends TeamKeysCommand<KeysCreateOptions> {
  protected async runFor(team: TeamEntity, options: KeysCreateOptions): Promise<void> {
    const { record, key } = await this.apiKeys.create(
      team.id,
      options.scopes,
      options.expiresAt ?? null,
    );
    if (options.json) {
      cliOutput.json({
        id: record.id,
        key,
        team_id: team.id,
        scopes: record.scopes,
        expires_at: record.expiresAt?.toISOString() ?? null,
      });
      return;
    }
    cliOutput.print(
      `Created API key ${record.id} for team "${team.name}" with scopes ${record.scopes.join(',')}`,
    );
    if (record.expiresAt) {
      cliOutput.print(`It expires at ${record.expiresAt.toISOString()}.`);
    }
    cliOutput.print('The key is shown only this once:', '', `    ${key}`, '');
  }

  @Option({ flags: '--team <name>', description: 'Team that owns the key', required: true })
  parseTeam(value: string): string {
    return value;
  }

  @Option({
    flags: '--scopes <list>',
    description: `Comma-separated scopes: ${SCOPES.join(', ')}`,
    required: true,
  })
  parseScopes(value: string): Scope[] {
    const scopes = [
      ...new Set(
        value
          .split(',')
          .map((scope) => scope.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = scopes.filter((scope) => !isScope(scope));
    if (scopes.length === 0 || unknown.length > 0) {
      throw new InvalidArgumentError(
        `unknown scope ${unknown.join(', ') || '(none given)'}; choose from ${SCOPES.join(', ')}`,
      );
    }
    return scopes as Scope[];
  }

  @Option({ flags: '--expires-at <iso>', description: 'Expiry as an ISO-8601 date-time' })
  parseExpiresAt(value: string): Date {
    return parseExpiresAt(value);
  }

  @Option({ flags: '--json', description: 'Print {id, key, team_id, scopes, expires_at} as JSON' })
  parseJson(): boolean {
    return true;
  }
}

@SubCommand({ name: 'list', description: "List a team's keys (never the keys themselves)" })
export class KeysListCommand extends TeamKeysCommand<KeysListOptions> {
  protected async runFor(team: TeamEntity, options: KeysListOptions): Promise<void> {
    const keys = (await this.apiKeys.listForTeam(team.id)).map(describeKey);
    if (options.json) {
      cliOutput.json(keys);
      return;
    }
    if (keys.length === 0) {
      cliOutput.print(`Team "${team.name}" has no keys.`);
      return;
    }
    cliOutput.table(
      ['ID', 'PREFIX', 'SCOPES', 'STATE', 'LAST USED'],
      keys.map((key) => [
        key.id,
        `${key.prefix}…`,
        key.scopes.join(','),
        keyState(key),
        key.last_used_at ?? 'never',
      ]),
    );
  }

  @Option({ flags: '--team <name>', description: 'Team whose keys to list', required: true })
  parseTeam(value: string): string {
    return value;
  }

  @Option({ flags: '--json', description: 'Print the keys as JSON' })
  parseJson(): boolean {
    return true;
  }
}

@SubCommand({ name: 'revoke', arguments: '<id>', description: 'Revoke a key by its id' })
export class KeysRevokeCommand extends CommandRunner {
  constructor(private readonly apiKeys: ApiKeysService) {
    super();
  }

  async run([id]: string[]): Promise<void> {
    if (!isId(id) || !(await this.apiKeys.revoke(id.toLowerCase()))) {
      cliOutput.fail(`no active key with id ${id}`);
      return;
    }
    cliOutput.print(`Revoked key ${id}`);
  }
}

@SubCommand({
  name: 'rotate',
  arguments: '<id>',
  description:
    'Replace a key with a new one of the same team and scopes; the old one works for --grace more',
})
export class KeysRotateCommand extends CommandRunner {
  constructor(private readonly apiKeys: ApiKeysService) {
    super();
  }

  async run([id]: string[], options: KeysRotateOptions): Promise<void> {
    const graceUntil = new Date(Date.now() + options.grace);
    const rotated = isId(id)
      ? await this.apiKeys.rotate(id.toLowerCase(), graceUntil, options.expiresAt ?? null)
      : null;
    if (!rotated) {
      cliOutput.fail(`no active key with id ${id}`);
      return;
    }
    const { replaced, created } = rotated;
    const oldExpiry = replaced.expiresAt!.toISOString();
    if (options.json) {
      cliOutput.json({
        id: created.record.id,
        key: created.key,
        team_id: created.record.teamId,
        scopes: created.record.scopes,
        expires_at: created.record.expiresAt?.toISOString() ?? null,
        replaced: { id: replaced.id, expires_at: oldExpiry },
      });
      return;
    }
    cliOutput.print(
      `Created API key ${created.record.id} with scopes ${created.record.scopes.join(',')} ` +
        `to replace ${replaced.id}, which keeps working until ${oldExpiry}.`,
    );
    if (created.record.expiresAt) {
      cliOutput.print(`The new key expires at ${created.record.expiresAt.toISOString()}.`);
    }
    cliOutput.print('The new key is shown only this once:', '', `    ${created.key}`, '');
  }

  @Option({
    flags: '--grace <duration>',
    description: 'How long the old key keeps working: 90s, 30m, 24h, 7d',
    required: true,
  })
  parseGrace(value: string): number {
    const ms = parseDuration(value);
    if (ms === null) {
      throw new InvalidArgumentError('expected a duration such as 30m, 24h or 7d');
    }
    return ms;
  }

  @Option({ flags: '--expires-at <iso>', description: 'Expiry of the new key (ISO-8601)' })
  parseExpiresAt(value: string): Date {
    return parseExpiresAt(value);
  }

  @Option({
    flags: '--json',
    description: 'Print {id, key, team_id, scopes, expires_at, replaced: {id, expires_at}} as JSON',
  })
  parseJson(): boolean {
    return true;
  }
}

@Command({
  name: 'keys',
  description: 'Manage API keys',
  subCommands: [KeysCreateCommand, KeysListCommand, KeysRotateCommand, KeysRevokeCommand],
})
export class KeysCommand extends CommandRunner {
  async run(): Promise<void> {
    this.command.help();
  }
}
