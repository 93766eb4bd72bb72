import type { WorkflowFlow, WorkflowRule } from '@/modules/workflows/entities/workflow.entity';
import { WorkflowTriggers } from './workflow-triggers';

const rule = (name: string, trigger: string | null, enabled = true): WorkflowRule => ({
  id: name,
  name,
  trigger,
  condition: null,
  response: name,
  action: null,
  enabled,
});

const flow = (
  name: string,
  keywords: Array<[string, 'high' | 'medium' | 'low' | null]>,
  is_active = true,
): WorkflowFlow => ({
  name,
  description: null,
  category: null,
  priority: null,
  is_active,
  trigger_keywords: keywords.map(([keyword, weight]) => ({ keyword, weight })),
  conversation_steps: [],
});

describe('WorkflowTriggers', () => {
  const rules = [
    rule('off', 'refund', false),
    rule('blank', ' , ,'),
    rule('none', null),
    rule('greeting', 'hello, good morning'),
    rule('refund', 'money back, refund'),
    rule('human', 'talk to a human, refund'),
  ];
  const triggers = new WorkflowTriggers({ rules, flows: [] });
  const first = (text: string) => triggers.match(text).rule?.name;

  it('answers the first enabled rule in order whose trigger has a phrase in the message', () => {
    expect(first('REFUND or I talk to a human')).toBe('refund');
    expect(first('Good morning! I want my money back')).toBe('greeting');
    expect(first('can I talk to a  human?')).toBe('human');
  });

  it('skips disabled rules and blank phrases, and finds no rule in an unrelated message', () => {
    expect(first('refundable goods')).toBeUndefined();
    expect(first(', , ,')).toBeUndefined();
    const onlyDisabled = new WorkflowTriggers({ rules: [rule('off', 'refund', false)], flows: [] });
    expect(onlyDisabled.match('refund').rule).toBeUndefined();
  });

  it('scores each active flow by the weights of its keywords found, counting each keyword once', () => {
    const flows = [
      flow('refund', [
        ['refund', 'high'],
        ['money back', null],
        ['refund', 'low'],
      ]),
      flow('inactive', [['refund', 'high']], false),
      flow('delivery', [
        ['delivery', 'low'],
        ['Ürün', 'medium'],
      ]),
    ];
    const found = new WorkflowTriggers({ rules: [rule('refund', 'refund')], flows }).match(
      'refund, refund and my MONEY BACK for the ürün delivery',
    );
    expect(found.rule?.name).toBe('refund');
    expect([...found.flowScores].sort()).toEqual([
      [0, 6],
      [2, 3],
    ]);
  });
});
