import type { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { handoffLanguage, handoffLine } from './handoff-line';

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
