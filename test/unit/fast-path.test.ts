import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Koa from 'koa';
import Router from '@koa/router';
import type { Context } from 'koa';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Connection } from '@temporalio/client';
import { channelReady } from '../../temporal/fast-path.js';

const require = createRequire(import.meta.url);
const root = join(dirname(require.resolve('../../../package.json')), '.');

/** The installed version of a package (read from its folder: some packages export no package.json). */
function installed(name: string): string {
  return (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

const pinned = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;

/** A fake Koa context for a path and method: what @koa/router's dispatch reads and writes. */
function contextFor(app: Koa, method: string, path: string): Context {
  const ctx = app.createContext({ method, url: path, headers: {}, socket: {} } as never, { setHeader() {}, getHeader() {} } as never);
  return ctx;
}

describe('the route label @koa/router gives the metrics (api/middleware/request-log.ts)', () => {
  it("is the matched route's template, in ctx.routerPath (documented by @koa/router)", async () => {
    const app = new Koa();
    const seen: unknown[] = [];
    const router = new Router();
    router.get('/v1/mailings/:id', (ctx: Context) => {
      seen.push({ params: { ...ctx.params }, route: (ctx as { routerPath?: string }).routerPath });
    });
    await (router.routes() as Koa.Middleware)(contextFor(app, 'GET', '/v1/mailings/m_1'), async () => undefined);
    expect(seen).to.deep.equal([{ params: { id: 'm_1' }, route: '/v1/mailings/:id' }]);
  });
});

/** The grpc-js version the Temporal fast path was read against (brought by @temporalio/client, not a direct dependency). */
const GRPC_JS_READ = '1.14.7';

describe("the Temporal client's fast path reads what the pinned libraries hold (temporal/fast-path.ts)", () => {
  it('pins exactly the versions whose internals it reads', () => {
    for (const name of ['@temporalio/client', '@temporalio/common', '@temporalio/worker', '@temporalio/workflow', '@temporalio/activity']) {
      expect(pinned[name], `${name} is pinned exactly in package.json`).to.match(/^\d+\.\d+\.\d+$/);
      expect(installed(name), `${name}: re-read temporal/fast-path.ts against the new version, then move the pin`).to.equal(pinned[name]);
    }
    expect(installed('@grpc/grpc-js'), '@grpc/grpc-js: re-read channelReady against the new version, then move GRPC_JS_READ').to.equal(GRPC_JS_READ);
  });

  it("finds the Connection's call context storage, an AsyncLocalStorage it can switch off", async () => {
    const connection = Connection.lazy({ address: '127.0.0.1:1' });
    try {
      expect(connection.callContextStorage).to.be.instanceOf(AsyncLocalStorage);
      expect(connection.callContextStorage.disable).to.be.a('function');
    } finally {
      await connection.close();
    }
  });

  it("reads the channel's state through the Connection's private grpc-js client (not connected: false, without a call)", async () => {
    const connection = Connection.lazy({ address: '127.0.0.1:1' });
    try {
      const grpcClient = (connection as unknown as { client?: { getChannel?: () => { getConnectivityState?: unknown } } }).client;
      expect(grpcClient?.getChannel, 'Connection.client.getChannel()').to.be.a('function');
      expect(grpcClient!.getChannel!().getConnectivityState, 'channel.getConnectivityState').to.be.a('function');
      expect(channelReady(connection)).to.equal(false);
    } finally {
      await connection.close();
    }
  });
});
