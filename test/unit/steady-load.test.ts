import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { steadyLoad } from '../../bench/support.js';

/** A local server that notes when each request arrives; `stall` may block it now and then. */
async function server(stall?: () => void): Promise<{ url: string; arrivals: number[]; close: () => Promise<void> }> {
  const arrivals: number[] = [];
  const http: Server = createServer((request, response) => {
    arrivals.push(performance.now());
    stall?.();
    request.resume();
    response.end('ok');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, arrivals, close: () => new Promise((resolve) => http.close(() => resolve())) };
}

describe("the benchmarks' steady load (bench/support.ts)", () => {
  it('sends evenly spaced requests at the rate asked, not bursts', async () => {
    const local = await server();
    try {
      const result = await steadyLoad('even', { url: local.url, rate: 100, durationSeconds: 2 });
      expect(result.errors).to.equal(0);
      expect(result.requestsPerSecond).to.be.within(90, 110);
      // The measured run (after its 1 s warm-up): about 10 requests in any 100 ms, never a
      // second's quota at once (what autocannon's overallRate sends).
      const measured = local.arrivals.slice(-200);
      const busiest = Math.max(...measured.map((t) => measured.filter((u) => u >= t && u < t + 100).length));
      expect(busiest).to.be.below(30);
    } finally {
      await local.close();
    }
  });

  it('counts a stall for every request it delays (no coordinated omission)', async () => {
    // The server freezes 100 ms once a second: about 10 % of the requests wait for it.
    let lastStall = performance.now();
    const local = await server(() => {
      if (performance.now() - lastStall < 1000) return;
      lastStall = performance.now();
      while (performance.now() - lastStall < 100);
    });
    try {
      const result = await steadyLoad('stalled', { url: local.url, rate: 100, durationSeconds: 2 });
      // Only the delayed requests wait: the median stays well under the tail (absolute times move with the machine's load).
      expect(result.p99Ms).to.be.at.least(70);
      expect(result.p50Ms).to.be.below(result.p99Ms / 2);
    } finally {
      await local.close();
    }
  });
});
