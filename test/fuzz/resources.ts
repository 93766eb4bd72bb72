import fc from 'fast-check';
import { API } from '../support/api-client';

export const AGENT = `${API}/agents/{agentId}`;
export const INTEGRATIONS = `${AGENT}/integrations`;
export const CONVERSATION = `${AGENT}/conversations/{conversationId}`;

export type Owner = 'own' | 'other';

/** The public web-chat API, outside the console prefix. */
export const WIDGET_API = '/api/v1/widget';
/**
 * Each agent's connected web chat, as its pages use it: `key` (the publishable key), an `origin`
 * it allows, and `visitorToken`, a visitor of it who has a conversation.
 */
export const WEBCHAT = 'webchat/{agentId}';

/** Real path parameter values that belong together (an agent and one of its knowledge bases). */
export interface Binding {
  owner: Owner;
  values: Record<string, string>;
}

const MAX_PER_SLOT = 200;

/**
 * The records the fuzz run knows about, by "slot": the path template up to the parameter they
 * fill (`/api/v1/console/agents/{agentId}/knowledge_bases/{kbId}`). Seeded first, then fed by
 * every 201 the run provokes, so that ids stay real while the fuzzer deletes things.
 */
export class Resources {
  private readonly slots = new Map<string, Binding[]>();

  add(slot: string, owner: Owner, values: Record<string, string>): void {
    const bindings = this.slots.get(slot) ?? [];
    bindings.push({ owner, values });
    if (bindings.length > MAX_PER_SLOT) {
      bindings.splice(0, bindings.length - MAX_PER_SLOT);
    }
    this.slots.set(slot, bindings);
  }

  /** Changes some values of the bindings of `slot` that hold `id` (a rotated key, say). */
  update(slot: string, id: string, changes: Record<string, string>): void {
    for (const binding of this.slots.get(slot) ?? []) {
      if (Object.values(binding.values).includes(id)) {
        binding.values = { ...binding.values, ...changes };
      }
    }
  }

  count(slot: string, owner: Owner): number {
    return (this.slots.get(slot) ?? []).filter((binding) => binding.owner === owner).length;
  }

  /** Drops every binding that holds `id`: a deleted record, and everything under it. */
  forget(id: string): void {
    for (const [slot, bindings] of this.slots) {
      this.slots.set(
        slot,
        bindings.filter((binding) => !Object.values(binding.values).includes(id)),
      );
    }
  }

  /** A binding of `slot`, or of the nearest slot above it, preferring the given owner. */
  pick(slot: string, owner: Owner, index: number): Binding | undefined {
    for (let current = slot; current.includes('{'); current = parentSlot(current)) {
      const all = this.slots.get(current) ?? [];
      const mine = all.filter((binding) => binding.owner === owner);
      const candidates = mine.length > 0 ? mine : all;
      if (candidates.length > 0) {
        return candidates[index % candidates.length];
      }
    }
    return undefined;
  }

  /** Ids of one parameter across every binding of a slot (for body fields such as workflow_id). */
  idArbitrary(slot: string, parameter: string): fc.Arbitrary<string> {
    return fc.nat().map((index) => {
      const all = this.slots.get(slot) ?? [];
      return all.length > 0
        ? all[index % all.length].values[parameter]
        : '00000000-0000-7000-8000-000000000000';
    });
  }
}

/** The slot a path's deepest parameter fills: the template cut just after that parameter. */
export function slotOf(path: string): string | undefined {
  const end = path.lastIndexOf('}');
  return end < 0 ? undefined : path.slice(0, end + 1);
}

function parentSlot(slot: string): string {
  const cut = slot.lastIndexOf('{');
  return slotOf(slot.slice(0, cut)) ?? '';
}

/** Where a 201 of each create operation puts its new record. */
const CREATED: Record<string, (data: any) => Array<[string, Record<string, string>]>> = {
  [`${API}/workflows`]: (data) => [[`${API}/workflows/{id}`, { id: data.id }]],
  [`${API}/workflows/clone`]: (data) => [[`${API}/workflows/{id}`, { id: data.id }]],
  [`${API}/agents`]: (data) => [[AGENT, { agentId: data.id }]],
  [`${AGENT}/knowledge_bases`]: (data) => [[`${AGENT}/knowledge_bases/{kbId}`, { kbId: data.id }]],
  [`${INTEGRATIONS}/custom_api/configure`]: (data) => [
    [`${INTEGRATIONS}/custom_api/{integrationId}`, { integrationId: data.id }],
  ],
  [`${INTEGRATIONS}/mcp_server/configure`]: (data) => [
    [`${INTEGRATIONS}/mcp_server/{integrationId}`, { integrationId: data.id }],
  ],
  [`${INTEGRATIONS}/pipedream/configure`]: (data) => [
    [`${INTEGRATIONS}/pipedream/{integrationId}`, { integrationId: data.id }],
  ],
  [`${INTEGRATIONS}/bimpeai/configure`]: (data) => [
    [`${INTEGRATIONS}/bimpeai/{integrationId}`, { integrationId: data.id }],
  ],
  [`${INTEGRATIONS}/custom_api/{integrationId}/tools`]: (data) => [
    [`${INTEGRATIONS}/custom_api/{integrationId}/tools/{toolId}`, { toolId: data.id }],
  ],
  [`${AGENT}/conversations/messages`]: (data) => [
    [CONVERSATION, { conversationId: data.conversation_id }],
    [
      `${CONVERSATION}/messages/{messageId}`,
      { conversationId: data.conversation_id, messageId: data.id },
    ],
  ],
  [`${API}/webhooks`]: (data) => [[`${API}/webhooks/{id}`, { id: data.id }]],
  [`${API}/webhooks/{id}/test`]: (data) => [
    [`${API}/webhooks/{id}/deliveries/{deliveryId}`, { deliveryId: data.id }],
  ],
  [`${CONVERSATION}/messages`]: (data) => [
    [`${CONVERSATION}/messages/{messageId}`, { messageId: data.id }],
  ],
};

/** Adds the record a create operation answered 201 with, under the path values it was made at. */
export function learnCreated(
  resources: Resources,
  operationPath: string,
  owner: Owner,
  pathValues: Record<string, string>,
  data: any,
): void {
  for (const [slot, values] of CREATED[operationPath]?.(data) ?? []) {
    if (Object.values(values).every((value) => typeof value === 'string')) {
      resources.add(slot, owner, { ...pathValues, ...values });
    }
  }
}
