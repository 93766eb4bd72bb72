import type { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { handoffLanguage, handoffLine } from './handoff-line';
import { fillPlaceholders } from './reply-engine';

const agent = (language: string | null) =>
  ({ name: 'Ada', businessName: 'Kiki', language }) as AgentEntity;

describe('handoffLanguage', () => {
  it.each([
    ['fr', 'fr'],
    ['pt-BR', 'pt'],
    ['sw_KE', 'sw'],
    ['  German ', 'de'],
    ['HAUSA', 'ha'],
    ['ja', 'en'],
    ['', 'en'],
    [null, 'en'],
    ['constructor', 'en'],
  ])('reads %p as %p', (language, code) => {
    expect(handoffLanguage(language)).toBe(code);
  });
});

describe('handoffLine', () => {
  it("names the business in the agent's language", () => {
    expect(handoffLine(agent('nl'), null)).toBe(
      'Bedankt voor je bericht. Iemand van het team van Kiki neemt binnenkort contact met je op.',
    );
  });

  it("prefers the workflow's line, ignoring one that is blank or not text", () => {
    expect(
      handoffLine(agent('fr'), { promptConfig: { handoff_message: 'Hold on, {{agent.name}}.' } }),
    ).toBe('Hold on, Ada.');
    expect(handoffLine(agent(null), { promptConfig: { handoff_message: '  ' } })).toContain(
      'Kiki team',
    );
    expect(handoffLine(agent(null), { promptConfig: { handoff_message: 42 } })).toContain(
      'Kiki team',
    );
  });
});

describe('fillPlaceholders', () => {
  const business = {
    name: 'Ada',
    businessName: 'Kiki',
    businessAddress: '1 Marina, Lagos',
    businessEmail: null,
    businessDescription: 'Shoes',
  } as AgentEntity;

  it("fills the agent's and the business's fields and the collected answers, nothing else", () => {
    expect(
      fillPlaceholders(
        '{{agent.name}} of {{ business.name }} ({{business.address}}, {{business.email}}): ' +
          '{{business.description}}, order {{order_id}}, {{unknown}}, {{agent.business_name}}',
        business,
        { order_id: 'KK-1' },
      ),
    ).toBe('Ada of Kiki (1 Marina, Lagos, ): Shoes, order KK-1, {{unknown}}, Kiki');
  });
});
