import { QueryFailedError } from 'typeorm';
import { ApiError } from '@/common/http/api-error';
import { ClusterEvents } from '@/common/state/ports';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import type { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import { WebhookEvents } from '@/modules/webhooks/webhook-events.service';
import { WorkflowsService } from '@/modules/workflows/workflows.service';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { ChannelsRepository } from './channels/channels.repository';
import { AgentCreateDto } from './dto/agent-create.dto';

const QUOTA = 3;
const input = { name: 'Ada', description: 'Answers', workflow_id: 'workflow' } as AgentCreateDto;
const workflow = {
  id: 'workflow',
  teamId: 'team',
  createdAt: new Date(0),
  updatedAt: new Date(0),
} as WorkflowEntity;
/** Up to the count, in one transaction: the workflow's lock, then the team's, then the count. */
const COUNTED = ['begin', 'hold workflow', 'lock teams team', 'count agents'];
const CREATED = ['insert agent', 'create channels', 'commit'];

describe('AgentsService.create', () => {
  /** What the service did, in order, with transaction boundaries. */
  let journal: string[];
  let agentsInTeam: number;
  /** Inserts that fail on the unique test channel code before one succeeds. */
  let codeCollisions: number;
  let service: AgentsService;

  beforeEach(() => {
    journal = [];
    agentsInTeam = 0;
    codeCollisions = 0;
    const db = {
      async transaction<T>(work: () => Promise<T>): Promise<T> {
        journal.push('begin');
        try {
          const result = await work();
          journal.push('commit');
          return result;
        } catch (error) {
          journal.push('rollback');
          throw error;
        }
      },
      lockRow: async (table: string, id: string) => {
        journal.push(`lock ${table} ${id}`);
      },
    };
    const agents = {
      async countForTeam() {
        journal.push('count agents');
        return agentsInTeam;
      },
      async insert() {
        if (codeCollisions > 0) {
          codeCollisions--;
          throw new QueryFailedError('INSERT', [], Object.assign(new Error(), { code: '23505' }));
        }
        journal.push('insert agent');
      },
    };
    const channels = {
      async createDefaults() {
        journal.push('create channels');
      },
    };
    const workflows = {
      async holdForAgent() {
        journal.push('hold workflow');
        return workflow;
      },
    };
    service = new AgentsService(
      db as unknown as Database,
      agents as unknown as AgentsRepository,
      channels as unknown as ChannelsRepository,
      workflows as unknown as WorkflowsService,
      {} as ClusterEvents,
      {} as WebhookEvents,
      { agents: { quota: QUOTA } } as AppConfig,
    );
  });

  it('creates the agent below the quota, counting under the team lock', async () => {
    agentsInTeam = QUOTA - 1;

    const { agent } = await service.create('team', input);

    expect(agent).toMatchObject({ teamId: 'team', name: 'Ada', status: 'development' });
    expect(journal).toEqual([...COUNTED, ...CREATED]);
  });

  it('refuses the agent at the quota with agent_limit_reached, inserting nothing', async () => {
    agentsInTeam = QUOTA;

    const created = service.create('team', input);

    await expect(created).rejects.toThrow(ApiError);
    await expect(created).rejects.toMatchObject({ code: 'agent_limit_reached' });
    expect(journal).toEqual([...COUNTED, 'rollback']);
  });

  it('tries again in a new transaction when the test channel code collides', async () => {
    codeCollisions = 1;

    await service.create('team', input);

    expect(journal).toEqual([...COUNTED, 'rollback', ...COUNTED, ...CREATED]);
  });
});
