/**
 * A process forked by the benchmarks (bench/memory.ts) answers `memory?` on its IPC channel with its
 * `process.memoryUsage()`, after a full collection when it runs with --expose-gc. Nothing happens
 * in a process that has no parent channel (any deployment). The channel does not keep the process
 * alive.
 */
export function answerMemoryProbe(): void {
  if (!process.send || !process.channel) return;
  process.on('message', (message) => {
    if (message !== 'memory?') return;
    // Started with --expose-gc (the bench does), the heap is measured live.
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ memory: process.memoryUsage() });
  });
  process.channel.unref();
}
