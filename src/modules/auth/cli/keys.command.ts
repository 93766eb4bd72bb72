import { Command, InvalidArgumentError } from 'commander';
import { canonicalId, isId } from '@/common/ids';
import { CliServices } from '@/common/cli/cli-services';
import { cliOutput, parseDuration } from '@/common/cli/cli-output';
import { ApiKeysService } from '../api-keys.service';
import { ApiKeyEntity } from '../entities/api-key.entity';
import { isScope, Scope, SCOPES } from '../scopes';
import { TeamsService } from '../teams.service';

interface KeysCreateOptions {
  team: string;
  scopes: Scope[];
  agents?: string[];
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

function parseScopes(value: string): Scope[] {
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

function parseAgents(value: string): string[] {
  const ids = [
    ...new Set(
      value
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  const malformed = ids.filter((id) => !isId(id));
  if (ids.length === 0 || malformed.length > 0) {
    throw new InvalidArgumentError(
      `expected agent ids separated by commas; not an id: ${malformed.join(', ') || '(none given)'}`,
    );
  }
  return ids.map((id) => canonicalId(id));
}

function parseGrace(value: string): number {
  const ms = parseDuration(value);
  if (ms === null) {
    throw new InvalidArgumentError('expected a duration such as 30m, 24h or 7d');
  }
  return ms;
}

function describeKey(key: ApiKeyEntity) {
  return {
    id: key.id,
    team_id: key.teamId,
    prefix: key.keyPrefix,
    scopes: key.scopes,
    agent_ids: key.agentIds,
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
  };
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

/** The actions of `keys`, on the services they need. */
class KeysActions {
  constructor(
    private readonly teams: TeamsService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async create(options: KeysCreateOptions): Promise<void> {
    const team = await this.team(options.team);
    if (!team) {
      return;
    }
    const created = options.agents
      ? await this.apiKeys.createForAgents(
          team.id,
          options.scopes,
          options.agents,
          options.expiresAt ?? null,
        )
      : await this.apiKeys.create(team.id, options.scopes, options.expiresAt ?? null);
    if ('notAgents' in created) {
      cliOutput.fail(
        `not an agent of team "${team.name}": ${created.notAgents.join(', ')}; no key was created`,
      );
      return;
    }
    const { record, key } = created;
    if (options.json) {
      cliOutput.json({
        id: record.id,
        key,
        team_id: team.id,
        scopes: record.scopes,
        agent_ids: record.agentIds,
        expires_at: record.expiresAt?.toISOString() ?? null,
      });
      return;
    }
    cliOutput.print(
      `Created API key ${record.id} for team "${team.name}" with scopes ${record.scopes.join(',')}`,
    );
    if (record.agentIds) {
      cliOutput.print(`It reaches only the agents ${record.agentIds.join(', ')}.`);
    }
    if (record.expiresAt) {
      cliOutput.print(`It expires at ${record.expiresAt.toISOString()}.`);
    }
    cliOutput.print('The key is shown only this once:', '', `    ${key}`, '');
  }

  async list(options: KeysListOptions): Promise<void> {
    const team = await this.team(options.team);
    if (!team) {
      return;
    }
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
      ['ID', 'PREFIX', 'SCOPES', 'AGENTS', 'STATE', 'LAST USED'],
      keys.map((key) => [
        key.id,
        `${key.prefix}…`,
        key.scopes.join(','),
        key.agent_ids?.join(',') ?? 'all',
        keyState(key),
        key.last_used_at ?? 'never',
      ]),
    );
  }

  async revoke(id: string): Promise<void> {
    if (!isId(id) || !(await this.apiKeys.revoke(id.toLowerCase()))) {
      cliOutput.fail(`no active key with id ${id}`);
      return;
    }
    cliOutput.print(`Revoked key ${id}`);
  }

  async rotate(id: string, options: KeysRotateOptions): Promise<void> {
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
        agent_ids: created.record.agentIds,
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

  /** The team named by `--team`; a failure for the operator when there is none. */
  private async team(name: string) {
    const team = await this.teams.findByName(name);
    if (!team) {
      cliOutput.fail(`no team named "${name}"`);
    }
    return team;
  }
}

/** `keys create|list|rotate|revoke`. */
export function keysCommand(services: CliServices): Command {
  const actions = async () =>
    new KeysActions(await services.get(TeamsService), await services.get(ApiKeysService));
  const keys = new Command('keys').description('Manage API keys');
  keys
    .command('create')
    .description('Create an API key; the key is printed once')
    .requiredOption('--team <name>', 'Team that owns the key')
    .requiredOption('--scopes <list>', `Comma-separated scopes: ${SCOPES.join(', ')}`, parseScopes)
    .option(
      '--agents <ids>',
      "Comma-separated ids of the team's agents: the key reaches only these (default: all)",
      parseAgents,
    )
    .option('--expires-at <iso>', 'Expiry as an ISO-8601 date-time', parseExpiresAt)
    .option('--json', 'Print {id, key, team_id, scopes, agent_ids, expires_at} as JSON')
    .action(async (options: KeysCreateOptions) => (await actions()).create(options));
  keys
    .command('list')
    .description("List a team's keys (never the keys themselves)")
    .requiredOption('--team <name>', 'Team whose keys to list')
    .option('--json', 'Print the keys as JSON')
    .action(async (options: KeysListOptions) => (await actions()).list(options));
  keys
    .command('rotate')
    .description(
      'Replace a key with a new one of the same team, scopes and agents; the old one works for --grace more',
    )
    .argument('<id>')
    .requiredOption(
      '--grace <duration>',
      'How long the old key keeps working: 90s, 30m, 24h, 7d',
      parseGrace,
    )
    .option('--expires-at <iso>', 'Expiry of the new key (ISO-8601)', parseExpiresAt)
    .option(
      '--json',
      'Print {id, key, team_id, scopes, agent_ids, expires_at, replaced: {id, expires_at}} as JSON',
    )
    .action(async (id: string, options: KeysRotateOptions) =>
      (await actions()).rotate(id, options),
    );
  keys
    .command('revoke')
    .description('Revoke a key by its id')
    .argument('<id>')
    .action(async (id: string) => (await actions()).revoke(id));
  return keys;
}
