import { terms } from './text-match';

const K1 = 1.2;
const B = 0.75;

export interface ScoredPassage {
  index: number;
  score: number;
  /** How many of the query's distinct terms the passage contains. */
  matchedTerms: number;
  queryTerms: number;
}

/** Okapi BM25 over a fixed set of passages. */
export class Bm25Index {
  private readonly termCounts: Array<Map<string, number>>;
  private readonly lengths: number[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(passages: string[]) {
    this.termCounts = passages.map((passage) => {
      const counts = new Map<string, number>();
      for (const term of terms(passage)) {
        counts.set(term, (counts.get(term) ?? 0) + 1);
      }
      for (const term of counts.keys()) {
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      }
      return counts;
    });
    this.lengths = this.termCounts.map((counts) =>
      [...counts.values()].reduce((sum, n) => sum + n, 0),
    );
    this.averageLength =
      this.lengths.reduce((sum, n) => sum + n, 0) / Math.max(1, this.lengths.length);
  }

  get size(): number {
    return this.termCounts.length;
  }

  private idf(term: string): number {
    const n = this.documentFrequency.get(term) ?? 0;
    return Math.log(1 + (this.size - n + 0.5) / (n + 0.5));
  }

  /** Passages with a positive score, best first. */
  search(query: string, limit: number): ScoredPassage[] {
    const queryTerms = [...new Set(terms(query))];
    const scored: ScoredPassage[] = [];
    this.termCounts.forEach((counts, index) => {
      let score = 0;
      let matchedTerms = 0;
      for (const term of queryTerms) {
        const frequency = counts.get(term);
        if (frequency) {
          const norm = K1 * (1 - B + (B * this.lengths[index]) / (this.averageLength || 1));
          score += this.idf(term) * ((frequency * (K1 + 1)) / (frequency + norm));
          matchedTerms++;
        }
      }
      if (score > 0) {
        scored.push({ index, score, matchedTerms, queryTerms: queryTerms.length });
      }
    });
    return scored.sort((a, b) => b.score - a.score || a.index - b.index).slice(0, limit);
  }
}
