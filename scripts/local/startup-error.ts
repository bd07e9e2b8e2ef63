/**
 * A component of the local stack that could not start, said in one line: which component, what
 * went wrong, and what to do about it. `npm start` prints it as is, without a stack trace.
 */
export class StartupError extends Error {
  constructor(
    readonly component: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${component}: ${problem}. ${fix}`);
    this.name = 'StartupError';
  }
}

/** The first non-empty line of an error's message, for one-line reports. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean) ?? text
  );
}
