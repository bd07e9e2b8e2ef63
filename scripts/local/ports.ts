import { freePort, isPortFree } from '../../lib/net/ports.js';

/** The preferred port when it is free, else any free port (we never take over someone's service). */
export async function preferredOrFreePort(preferred: number): Promise<number> {
  return (await isPortFree(preferred)) ? preferred : freePort();
}
