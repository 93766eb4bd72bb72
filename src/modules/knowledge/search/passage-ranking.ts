import { CandidatePassage, KeyFrequencies } from '../index/passage-index';
import { matchWeight, SearchKey, words } from './search-terms';

const K1 = 1.2;
const B = 0.75;
/** A title (a FAQ question) word counts this many times a text word. */
const TITLE_WEIGHT = 2;

export interface RankedPassage extends CandidatePassage {
  score: number;
  /**
   * The share of the question's weight (each key weighing its rarity among the owners'
   * passages) that the passage holds: 1 when it holds every key.
   */
  coverage: number;
  /** How many of the question's subject keys (not its cues, not its numbers) the passage holds. */
  subjectKeys: number;
}

/**
 * A word no passage holds counts for this share of the rarest possible word: it may be what the
 * knowledge lacks ("gift cards" at a bakery), or only the customer's own word for what it has.
 * Above one half: the question-type cues and synonyms reach more passages, and a question about
 * something the knowledge lacks should not be answered by the passage holding its other words.
 */
export const UNKNOWN_WORD_WEIGHT = 0.6;

/**
 * A question-type cue ("where" → address words) counts for this share of a word of its rarity:
 * it tells apart passages on the question's subject, and answers a question with no other key
 * ("where are you"), but never outweighs the subject itself.
 */
export const CUE_WEIGHT = 0.5;

/** How rare a key is among `total` passages. */
function idf(count: number, total: number): number {
  const weight = Math.log(1 + (total - Math.max(count, 1) + 0.5) / (Math.max(count, 1) + 0.5));
  return count === 0 ? UNKNOWN_WORD_WEIGHT * weight : weight;
}

/**
 * Ranks the candidates by how much of the question each covers, then by Okapi BM25 (document
 * frequencies from the owners' whole knowledge): a passage that holds more of what was asked
 * comes first. The same on either database.
 */
export function rankPassages(
  keys: SearchKey[],
  candidates: CandidatePassage[],
  frequencies: KeyFrequencies,
): RankedPassage[] {
  // A cue the knowledge does not hold at all says nothing about the question: it weighs nothing.
  const weights = keys.map((key, i) => {
    const count = frequencies.counts[i] ?? 0;
    if (key.cue) {
      return count > 0 ? CUE_WEIGHT * idf(count, frequencies.total) : 0;
    }
    return idf(count, frequencies.total);
  });
  // A number ("a table for 4", "after 11pm", "a 7m van") is a detail of the question, not its
  // subject: the knowledge answers with numbers of its own. It counts for a passage holding it,
  // never against one that does not.
  const details = keys.map((key) => /\p{N}/u.test(key.text));
  const subjectWeight = weights.reduce((sum, w, i) => (details[i] ? sum : sum + w), 0);
  // How much each word counts for each key, worked out once per word: candidates share most words.
  const matches = new Map<string, number[]>();
  const matchesOf = (word: string) => {
    let found = matches.get(word);
    if (!found) {
      found = keys.map((key) => matchWeight(key, word));
      matches.set(word, found);
    }
    return found;
  };
  const documents = candidates.map((candidate) => {
    const title = words(candidate.title);
    const content = words(candidate.content).concat(words(candidate.terms));
    const length = TITLE_WEIGHT * title.length + content.length;
    return { candidate, title, content, length };
  });
  const averageLength =
    documents.reduce((sum, d) => sum + d.length, 0) / Math.max(1, documents.length) || 1;
  return documents
    .map(({ candidate, title, content, length }) => {
      // A synonym counts less than the customer's own word, in the frequency and the coverage.
      const frequency = keys.map(() => 0);
      const best = keys.map(() => 0);
      const count = (words: string[], times: number) => {
        for (const word of words) {
          const found = matchesOf(word);
          for (let i = 0; i < found.length; i++) {
            if (found[i] > 0) {
              frequency[i] += found[i] * times;
              best[i] = Math.max(best[i], found[i]);
            }
          }
        }
      };
      count(title, TITLE_WEIGHT);
      count(content, 1);
      let score = 0;
      let covered = 0;
      let totalWeight = subjectWeight;
      let subjectKeys = 0;
      const norm = K1 * (1 - B + (B * length) / averageLength);
      keys.forEach((_, i) => {
        if (frequency[i] > 0) {
          score += weights[i] * ((frequency[i] * (K1 + 1)) / (frequency[i] + norm));
          covered += weights[i] * best[i];
          totalWeight += details[i] ? weights[i] : 0;
          subjectKeys += details[i] || keys[i].cue ? 0 : 1;
        }
      });
      const coverage = totalWeight > 0 ? covered / totalWeight : 0;
      return { ...candidate, score, coverage, subjectKeys };
    })
    .filter((ranked) => ranked.score > 0)
    .sort((a, b) => b.coverage - a.coverage || b.score - a.score);
}
