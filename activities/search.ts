import type { Config } from '../lib/config.js';
import { embed } from './partners/embeddings.js';

export function searchActivities(config: Config) {
  return {
    /** Vectors of the texts, from the configured embeddings endpoint. */
    async embedTexts(texts: string[]): Promise<number[][]> {
      return embed(config.embeddings, texts);
    },
  };
}
