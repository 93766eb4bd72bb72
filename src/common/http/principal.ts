/** Who is calling: the API key that authenticated the request, and its team. */
export interface Principal {
  keyId: string;
  teamId: string;
  scopes: readonly string[];
}
