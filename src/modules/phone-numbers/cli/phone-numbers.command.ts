import { Command, InvalidArgumentError } from 'commander';
import { CliServices } from '@/common/cli/cli-services';
import { isId } from '@/common/ids';
import { cliOutput } from '@/common/cli/cli-output';
import { toPhoneNumberRequestResponse } from '../dto/phone-number-request-response.dto';
import { toPhoneNumberResponse } from '../dto/phone-number-response.dto';
import { PhoneNumberRequestEntity } from '../entities/phone-number-request.entity';
import { OperatorRefusal, PhoneNumberOperationsService } from '../phone-number-operations.service';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

interface ListOptions {
  json?: boolean;
  limit?: number;
}

interface JsonFlag {
  json?: boolean;
}

interface RejectOptions extends JsonFlag {
  reason: string;
}

/** A request as the operator sees it: the team's view of it, plus whose it is. */
function describeRequest(request: PhoneNumberRequestEntity, teamName?: string | null) {
  return {
    ...toPhoneNumberRequestResponse(request),
    team_id: request.teamId,
    ...(teamName === undefined ? {} : { team_name: teamName }),
  };
}

/** Runs an operator's decision; a refusal is printed for the operator with a failing exit code. */
async function decide(requestId: string, decision: (id: string) => Promise<void>): Promise<void> {
  const id = isId(requestId) ? requestId.toLowerCase() : null;
  if (id === null) {
    cliOutput.fail(`no phone number request with id ${requestId}`);
    return;
  }
  try {
    await decision(id);
  } catch (error) {
    if (!(error instanceof OperatorRefusal)) {
      throw error;
    }
    cliOutput.fail(error.message);
  }
}

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < 1 || limit > MAX_LIMIT) {
    throw new InvalidArgumentError(`expected a whole number from 1 to ${MAX_LIMIT}`);
  }
  return limit;
}

async function listRequests(
  operations: PhoneNumberOperationsService,
  options: ListOptions,
): Promise<void> {
  const pending = await operations.listPending(options.limit ?? DEFAULT_LIMIT);
  const rows = pending.map(({ request, teamName }) => describeRequest(request, teamName));
  if (options.json) {
    cliOutput.json(rows);
    return;
  }
  if (rows.length === 0) {
    cliOutput.print('No pending phone number requests.');
    return;
  }
  cliOutput.table(
    ['ID', 'TEAM', 'REGION', 'AGENTS', 'OUTBOUND MIN', 'CREATED', 'BUSINESS: INTENDED USE'],
    rows.map((row) => [
      row.id,
      row.team_name ?? row.team_id,
      row.region,
      String(row.agent_count),
      String(row.outbound_minutes),
      row.created_at,
      `${row.business_name}: ${row.intended_use}`,
    ]),
  );
}

function fulfil(
  operations: PhoneNumberOperationsService,
  requestId: string,
  e164: string,
  options: JsonFlag,
): Promise<void> {
  return decide(requestId, async (id) => {
    const { request, number } = await operations.fulfil(id, e164);
    if (options.json) {
      cliOutput.json({
        request: describeRequest(request),
        number: { ...toPhoneNumberResponse(number), team_id: number.teamId },
      });
      return;
    }
    cliOutput.print(
      `Fulfilled request ${request.id}: ${number.e164} is now number ${number.id} of team ${number.teamId}`,
    );
  });
}

function reject(
  operations: PhoneNumberOperationsService,
  requestId: string,
  options: RejectOptions,
): Promise<void> {
  return decide(requestId, async (id) => {
    const request = await operations.reject(id, options.reason);
    if (options.json) {
      cliOutput.json(describeRequest(request));
      return;
    }
    cliOutput.print(`Rejected request ${request.id}: ${request.rejectionReason}`);
  });
}

/** `phone-numbers requests|fulfil|reject`: operators' provisioning. */
export function phoneNumbersCommand(services: CliServices): Command {
  const operations = () => services.get(PhoneNumberOperationsService);
  const phoneNumbers = new Command('phone-numbers').description(
    "Operators' phone number provisioning",
  );
  phoneNumbers
    .command('requests')
    .description("List every team's pending requests: teams take turns, each team's oldest first")
    .option('--json', 'Print the requests as JSON')
    .option('--limit <n>', `At most n requests (default ${DEFAULT_LIMIT})`, parseLimit)
    .action(async (options: ListOptions) => listRequests(await operations(), options));
  phoneNumbers
    .command('fulfil')
    .description(
      "Give a pending request its number (E.164, e.g. +14155550100): it becomes the team's",
    )
    .argument('<requestId>')
    .argument('<e164>')
    .option('--json', 'Print {request, number} as JSON')
    .action(async (requestId: string, e164: string, options: JsonFlag) =>
      fulfil(await operations(), requestId, e164, options),
    );
  phoneNumbers
    .command('reject')
    .description('Reject a pending request; the team sees the reason')
    .argument('<requestId>')
    .requiredOption('--reason <text>', 'Why, for the team to read')
    .option('--json', 'Print the request as JSON')
    .action(async (requestId: string, options: RejectOptions) =>
      reject(await operations(), requestId, options),
    );
  return phoneNumbers;
}
