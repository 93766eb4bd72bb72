import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import { TeamsService } from '../teams.service';
import { cliOutput } from '@/common/cli/cli-output';

interface JsonFlag {
  json?: boolean;
}

@SubCommand({ name: 'create', arguments: '<name>', description: 'Create a team' })
export class TeamsCreateCommand extends CommandRunner {
  constructor(private readonly teams: TeamsService) {
    super();
  }

  async run([name]: string[], options: JsonFlag): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 255) {
      cliOutput.fail('a team name must be 1 to 255 characters');
      return;
    }
    const team = await this.teams.create(trimmed);
    if (!team) {
      cliOutput.fail(`a team named "${trimmed}" already exists`);
      return;
    }
    if (options.json) {
      cliOutput.json({ id: team.id, name: team.name });
    } else {
      cliOutput.print(`Created team "${team.name}" (${team.id})`);
    }
  }

  @Option({ flags: '--json', description: 'Print the result as JSON' })
  parseJson(): boolean {
    return true;
  }
}

@SubCommand({ name: 'list', description: 'List every team' })
export class TeamsListCommand extends CommandRunner {
  constructor(private readonly teams: TeamsService) {
    super();
  }

  async run(_: string[], options: JsonFlag): Promise<void> {
    const teams = (await this.teams.list()).map((team) => ({
      id: team.id,
      name: team.name,
      created_at: team.createdAt.toISOString(),
    }));
    if (options.json) {
      cliOutput.json(teams);
      return;
    }
    if (teams.length === 0) {
      cliOutput.print('No teams.');
      return;
    }
    cliOutput.table(
      ['ID', 'NAME', 'CREATED'],
      teams.map((team) => [team.id, team.name, team.created_at]),
    );
  }

  @Option({ flags: '--json', description: 'Print the teams as JSON' })
  parseJson(): boolean {
    return true;
  }
}

@Command({
  name: 'teams',
  description: 'Manage teams',
  subCommands: [TeamsCreateCommand, TeamsListCommand],
})
export class TeamsCommand extends CommandRunner {
  async run(): Promise<void> {
    this.command.help();
  }
}
