/** Input limits of docs/api.md §1. */
export const LIMITS = {
  name: 255,
  description: 2000,
  systemPrompt: 50_000,
  knowledgeContent: 200_000,
  message: 10_000,
  array: 500,
  url: 2048,
  /** Rule trigger phrases, and flow trigger keywords, in one workflow. */
  triggerPhrases: 2_000,
  /** Their characters together: compiling them is done once per version, but it must stay short. */
  triggerCharacters: 50_000,
} as const;
