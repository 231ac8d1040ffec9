/** Who is calling: the buyer an API key belongs to, and the key itself. */
export interface Viewer {
  buyerId: string;
  apiKeyId: string;
}
