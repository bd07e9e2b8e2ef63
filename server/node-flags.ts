/**
 * The Node flags of the API's process, wherever it is started: the image's command (Dockerfile),
 * the chart's API container, docker-compose, `npm start` (the API and the worker in one process),
 * the bench's API processes and the tests'. Written here once; test/unit/node-flags.test.ts fails
 * when one of those places says otherwise.
 *
 * `--max-semi-space-size=32`: V8's young generation at 32 MiB a semi-space instead of 16. Every
 * request allocates short-lived objects (the parsed body, the answer's JSON, the log line); with a
 * young generation twice as large, fewer of them survive a scavenge and are copied. Its A-B is in
 * docs/performance.md, "The API's Node flags": the CPU of a cached mailing and of a cold read fell
 * by 10–20 %, bare Koa's did not move, and the API's RSS stays within the chart's 512 MiB limit.
 */
export const API_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
