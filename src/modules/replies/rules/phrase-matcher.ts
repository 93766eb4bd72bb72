import { phraseSymbols } from './phrase-symbols';

const ROOT = 0;
/** No such symbol or child. */
const NONE = -1;
/** The node has several children, kept in `branches`. */
const MANY = -2;

/**
 * Which of many phrases occur in a text as whole words, case-insensitively, with any run of white
 * space between their words: an Aho–Corasick automaton over the phrases' symbols, built once.
 * A search reads the text once, so its cost grows with the text, not with the number or the
 * length of the phrases.
 *
 * Most nodes of a trie built from long phrases have a single child: that child is kept in two
 * typed arrays, and only nodes that branch get a map.
 */
export class PhraseMatcher {
  private readonly symbolIds = new Map<string, number>();
  private readonly onlySymbol: Int32Array;
  private readonly onlyChild: Int32Array;
  private readonly branches = new Map<number, Map<number, number>>();
  private readonly fail: Int32Array;
  /** The node itself if a phrase ends there, else the next such node on its fail chain. */
  private readonly output: Int32Array;
  private readonly phrasesEnding = new Map<number, number[]>();
  private nodes = 1;

  constructor(phrases: readonly string[]) {
    const sequences = phrases.map((phrase) => phraseSymbols(phrase.trim()));
    const capacity = sequences.reduce((sum, symbols) => sum + symbols.length, 1);
    this.onlySymbol = new Int32Array(capacity).fill(NONE);
    this.onlyChild = new Int32Array(capacity);
    this.fail = new Int32Array(capacity);
    this.output = new Int32Array(capacity);
    sequences.forEach((symbols, index) => this.insert(symbols, index));
    this.link();
  }

  /** The number of states, a measure of the memory the matcher holds. */
  get size(): number {
    return this.nodes;
  }

  /** The indices of the phrases found in `text`, in ascending order. */
  find(text: string): number[] {
    const found: number[] = [];
    const reported = new Set<number>();
    let node = ROOT;
    for (const symbol of phraseSymbols(text)) {
      node = this.step(node, this.symbolIds.get(symbol) ?? NONE);
      // A node already reported had its whole output chain reported with it.
      for (
        let end = this.output[node];
        end !== ROOT && !reported.has(end);
        end = this.output[this.fail[end]]
      ) {
        reported.add(end);
        found.push(...this.phrasesEnding.get(end)!);
      }
    }
    return found.sort((a, b) => a - b);
  }

  private insert(symbols: string[], phrase: number): void {
    if (symbols.length === 0) {
      return;
    }
    let node = ROOT;
    for (const symbol of symbols) {
      let id = this.symbolIds.get(symbol);
      if (id === undefined) {
        id = this.symbolIds.size;
        this.symbolIds.set(symbol, id);
      }
      let next = this.child(node, id);
      if (next === NONE) {
        next = this.nodes++;
        this.addChild(node, id, next);
      }
      node = next;
    }
    const ending = this.phrasesEnding.get(node);
    if (ending) {
      ending.push(phrase);
    } else {
      this.phrasesEnding.set(node, [phrase]);
    }
  }

  /** Fail and output links, breadth first so that a node's links are set before its children's. */
  private link(): void {
    const queue = new Int32Array(this.nodes);
    let tail = 0;
    queue[tail++] = ROOT;
    for (let head = 0; head < tail; head++) {
      const node = queue[head];
      this.output[node] =
        node === ROOT || this.phrasesEnding.has(node) ? node : this.output[this.fail[node]];
      this.forEachChild(node, (symbol, child) => {
        this.fail[child] = node === ROOT ? ROOT : this.step(this.fail[node], symbol);
        queue[tail++] = child;
      });
    }
  }

  private step(from: number, symbol: number): number {
    if (symbol === NONE) {
      return ROOT;
    }
    for (let node = from; ; node = this.fail[node]) {
      const next = this.child(node, symbol);
      if (next !== NONE) {
        return next;
      }
      if (node === ROOT) {
        return ROOT;
      }
    }
  }

  private child(node: number, symbol: number): number {
    const only = this.onlySymbol[node];
    if (only === symbol) {
      return this.onlyChild[node];
    }
    return only === MANY ? (this.branches.get(node)!.get(symbol) ?? NONE) : NONE;
  }

  private addChild(node: number, symbol: number, child: number): void {
    const only = this.onlySymbol[node];
    if (only === NONE) {
      this.onlySymbol[node] = symbol;
      this.onlyChild[node] = child;
      return;
    }
    if (only !== MANY) {
      this.branches.set(node, new Map([[only, this.onlyChild[node]]]));
      this.onlySymbol[node] = MANY;
    }
    this.branches.get(node)!.set(symbol, child);
  }

  private forEachChild(node: number, visit: (symbol: number, child: number) => void): void {
    const only = this.onlySymbol[node];
    if (only === MANY) {
      this.branches.get(node)!.forEach((child, symbol) => visit(symbol, child));
    } else if (only !== NONE) {
      visit(only, this.onlyChild[node]);
    }
  }
}
