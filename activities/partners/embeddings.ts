import got from 'got';

export interface EmbeddingsSettings {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string;
}

interface EmbeddingsResponse {
  data: { index: number; embedding: number[] }[];
}

/**
 * The semantic engine: an OpenAI-compatible POST {base}/embeddings. Retries belong to the
 * activity (Temporal), so the client makes one attempt with a timeout.
 */
export async function embed(settings: EmbeddingsSettings, texts: string[]): Promise<number[][]> {
  if (!settings.baseUrl) throw new Error('no embeddings endpoint is configured (EMBEDDINGS_BASE_URL)');
  const response = await got
    .post(`${settings.baseUrl.replace(/\/$/, '')}/embeddings`, {
      json: { model: settings.model, input: texts },
      headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
      timeout: { request: 10_000 },
      retry: { limit: 0 },
    })
    .json<EmbeddingsResponse>();
  if (!Array.isArray(response?.data) || response.data.length !== texts.length || response.data.some((d) => !Array.isArray(d.embedding))) {
    throw new Error('malformed embeddings response');
  }
  return [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
}
