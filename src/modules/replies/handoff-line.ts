import type { AgentEntity } from '@/modules/agents/entities/agent.entity';
import type { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import { fillPlaceholders, Handoff, NO_ANSWER_HANDOFF, Reply } from './reply-engine';

/** The built-in hand-off line by language (ISO 639-1); `{team}` is the business's name. */
const HANDOFF_LINES: Record<string, string> = {
  en: 'Thanks for your message. Someone from the {team} team will get back to you shortly.',
  fr: "Merci pour votre message. Une personne de l'équipe {team} vous répondra très bientôt.",
  es: 'Gracias por tu mensaje. Alguien del equipo de {team} te responderá en breve.',
  pt: 'Obrigado pela sua mensagem. Alguém da equipe {team} vai responder em breve.',
  de: 'Danke für Ihre Nachricht. Jemand aus dem Team von {team} meldet sich in Kürze bei Ihnen.',
  it: 'Grazie per il tuo messaggio. Qualcuno del team di {team} ti risponderà a breve.',
  nl: 'Bedankt voor je bericht. Iemand van het team van {team} neemt binnenkort contact met je op.',
  sw: 'Asante kwa ujumbe wako. Mtu kutoka timu ya {team} atakujibu hivi karibuni.',
  yo: 'A dúpẹ́ fún ìfiránṣẹ́ rẹ. Ẹnìkan láti ẹgbẹ́ {team} yóò dá ọ lóhùn láìpẹ́.',
  ha: 'Mun gode da saƙonka. Wani daga ƙungiyar {team} zai amsa maka nan ba da jimawa ba.',
  ig: "Daalụ maka ozi gị. Onye otu {team} ga-aza gị n'oge na-adịghị anya.",
  ar: 'شكرًا على رسالتك. سيتواصل معك أحد أعضاء فريق {team} قريبًا.',
};

/** An agent's `language` as people write it: a code (`fr`, `pt-BR`) or an English name. */
const LANGUAGE_NAMES: Record<string, string> = {
  english: 'en',
  french: 'fr',
  spanish: 'es',
  portuguese: 'pt',
  german: 'de',
  italian: 'it',
  dutch: 'nl',
  swahili: 'sw',
  kiswahili: 'sw',
  yoruba: 'yo',
  hausa: 'ha',
  igbo: 'ig',
  arabic: 'ar',
};

/** The built-in line's language for an agent's `language`; English when it has no line of its own. */
export function handoffLanguage(language: string | null): string {
  const written = (language ?? '').trim().toLowerCase();
  const code = LANGUAGE_NAMES[written] ?? written.split(/[-_]/)[0];
  return Object.hasOwn(HANDOFF_LINES, code) ? code : 'en';
}

/**
 * What a customer reads when a person takes over: the workflow's
 * `prompt_config.handoff_message` (placeholders filled) when it sets one, else the built-in
 * line in the agent's language.
 */
export function handoffLine(
  agent: AgentEntity,
  workflow: Pick<WorkflowEntity, 'promptConfig'> | null,
  collected: Record<string, string> = {},
): string {
  const own = workflow?.promptConfig?.handoff_message;
  if (typeof own === 'string' && own.trim()) {
    return fillPlaceholders(own.trim(), agent, collected);
  }
  const team = agent.businessName ?? agent.name;
  return HANDOFF_LINES[handoffLanguage(agent.language)].replace('{team}', team);
}

/** A reply that hands the conversation to a person, with the hand-off line. */
export function handoffReply(
  agent: AgentEntity,
  workflow: Pick<WorkflowEntity, 'promptConfig'> | null,
  handoff: Handoff = NO_ANSWER_HANDOFF,
): Reply {
  return { text: handoffLine(agent, workflow), needsAttention: true, handoff, source: 'handoff' };
}
