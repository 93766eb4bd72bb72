/** Who is calling: the API key that authenticated the request, and its team. */
export interface Principal {
  keyId: string;
  teamId: string;
  scopes: readonly string[];
  /** The only agents the key reaches; null: every agent of the team. */
  agentIds: readonly string[] | null;
}
