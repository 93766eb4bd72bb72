import { CandidatePassage, KeyFrequencies } from './passages.repository';
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
}

/**
 * A word no passage holds counts for this share of the rarest possible word: it may be what the
 * knowledge lacks ("gift cards" at a bakery), or only the customer's own word for what it has.
 */
export const UNKNOWN_WORD_WEIGHT = 0.5;

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
  const weights = keys.map((_, i) => idf(frequencies.counts[i] ?? 0, frequencies.total));
  // A number the knowledge never mentions ("a table for 4") is a detail of the question, not
  // its subject: it does not count against a passage.
  const totalWeight = weights.reduce(
    (sum, w, i) => (/^\p{N}+$/u.test(keys[i].text) && !frequencies.counts[i] ? sum : sum + w),
    0,
  );
  const documents = candidates.map((candidate) => {
    const title = words(candidate.title);
    const content = [...words(candidate.content), ...words(candidate.terms)];
    const length = TITLE_WEIGHT * title.length + content.length;
    return { candidate, counts: wordCounts(title, content), length };
  });
  const averageLength =
    documents.reduce((sum, d) => sum + d.length, 0) / Math.max(1, documents.length) || 1;
  return documents
    .map(({ candidate, counts, length }) => {
      let score = 0;
      let covered = 0;
      keys.forEach((key, i) => {
        // A synonym counts less than the customer's own word, in the frequency and the coverage.
        let frequency = 0;
        let best = 0;
        for (const [word, count] of counts) {
          const weight = matchWeight(key, word);
          frequency += weight * count;
          best = Math.max(best, weight);
        }
        if (frequency > 0) {
          const norm = K1 * (1 - B + (B * length) / averageLength);
          score += weights[i] * ((frequency * (K1 + 1)) / (frequency + norm));
          covered += weights[i] * best;
        }
      });
      return { ...candidate, score, coverage: totalWeight > 0 ? covered / totalWeight : 0 };
    })
    .filter((ranked) => ranked.score > 0)
    .sort((a, b) => b.coverage - a.coverage || b.score - a.score);
}

/** Each distinct word of a passage with its count, a title word counting TITLE_WEIGHT times. */
function wordCounts(title: string[], content: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of title) {
    counts.set(word, (counts.get(word) ?? 0) + TITLE_WEIGHT);
  }
  for (const word of content) {
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}
