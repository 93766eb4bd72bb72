import { Command } from 'commander';
import { CliServices } from '@/common/cli/cli-services';
import { cliOutput } from '@/common/cli/cli-output';
import { TeamsService } from '../teams.service';

interface JsonFlag {
  json?: boolean;
}

async function createTeam(teams: TeamsService, name: string, options: JsonFlag): Promise<void> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 255) {
    cliOutput.fail('a team name must be 1 to 255 characters');
    return;
  }
  const team = await teams.create(trimmed);
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

async function listTeams(teams: TeamsService, options: JsonFlag): Promise<void> {
  const listed = (await teams.list()).map((team) => ({
    id: team.id,
    name: team.name,
    created_at: team.createdAt.toISOString(),
  }));
  if (options.json) {
    cliOutput.json(listed);
    return;
  }
  if (listed.length === 0) {
    cliOutput.print('No teams.');
    return;
  }
  cliOutput.table(
    ['ID', 'NAME', 'CREATED'],
    listed.map((team) => [team.id, team.name, team.created_at]),
  );
}

/** `teams create <name>`, `teams list`. */
export function teamsCommand(services: CliServices): Command {
  const teams = new Command('teams').description('Manage teams');
  teams
    .command('create')
    .description('Create a team')
    .argument('<name>')
    .option('--json', 'Print the result as JSON')
    .action(async (name: string, options: JsonFlag) =>
      createTeam(await services.get(TeamsService), name, options),
    );
  teams
    .command('list')
    .description('List every team')
    .option('--json', 'Print the teams as JSON')
    .action(async (options: JsonFlag) => listTeams(await services.get(TeamsService), options));
  return teams;
}
