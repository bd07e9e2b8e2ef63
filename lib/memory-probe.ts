/**
 * A process forked by the benchmarks (bench/memory.ts) answers `memory?` on its IPC channel with its
 * `process.memoryUsage()`. Nothing happens in a process that has no parent channel (any deployment).
 * The channel does not keep the process alive.
 */
export function answerMemoryProbe(): void {
  if (!process.send || !process.channel) return;
  process.on('message', (message) => {
    if (message === 'memory?') process.send?.({ memory: process.memoryUsage() });
  });
  process.channel.unref();
}
