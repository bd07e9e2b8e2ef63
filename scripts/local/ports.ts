import { freePort, isPortFree } from '../../lib/net/ports.js';
import { StartupError } from './startup-error.js';

/** The preferred port when it is free, else any free port (we never take over someone's service). */
export async function preferredOrFreePort(preferred: number): Promise<number> {
  return (await isPortFree(preferred)) ? preferred : freePort();
}

/**
 * A server that could not listen on a port it was given: free when checked, taken before the server
 * bound it (another clone starting at the same moment).
 */
export class PortTakenError extends StartupError {}

/** What a server that lost a port race says (Go's and PostgreSQL's wording). */
export const PORT_TAKEN_OUTPUT = /address already in use|can't (set|use default) \w+( \w+)? port/i;

/** Tries of a server whose ports are taken under it, before giving up. */
export const PORT_TRIES = 5;

/**
 * Starts a server, again while it fails with PortTakenError (at most PORT_TRIES times): `start` is
 * given the try's number (1 first) and chooses its ports, the preferred ones first, then free ones.
 * Checking a port and binding it cannot be one step for a server we spawn, so the loser of a race retries.
 */
export async function retryWhilePortTaken<T>(start: (attempt: number) => Promise<T>, tries = PORT_TRIES): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(attempt);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= tries) throw error;
    }
  }
}
