import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Koa from 'koa';
import Router from '@koa/router';
import type { Context } from 'koa';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Connection } from '@temporalio/client';
import { firstMatchingRoute, matchedRoute } from '../../api/fast-path.js';
import { channelReady } from '../../temporal/fast-path.js';

const require = createRequire(import.meta.url);
const root = join(dirname(require.resolve('../../../package.json')), '.');

/** The installed version of a package (read from its folder: some packages export no package.json). */
function installed(name: string): string {
  return (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

const pinned = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;

/** A fake Koa context for a path and method: what @koa/router's dispatch and ours read and write. */
function contextFor(app: Koa, method: string, path: string): Context {
  const ctx = app.createContext({ method, url: path, headers: {}, socket: {} } as never, { setHeader() {}, getHeader() {} } as never);
  return ctx;
}

describe('the fast path reads what the pinned libraries hold (api/fast-path.ts)', () => {
  it('pins exactly the versions whose internals it reads', () => {
    for (const name of ['@koa/router', 'koa']) {
      expect(pinned[name], `${name} is pinned exactly in package.json`).to.match(/^\d+\.\d+\.\d+$/);
      expect(installed(name), `${name}: re-read api/fast-path.ts against the new version, then move the pin`).to.equal(pinned[name]);
    }
  });

  it("finds @koa/router's Layer fields it dispatches with", () => {
    const router = new Router();
    router.get('/v1/mailings/:id', () => undefined);
    const layer = router.stack[0]!;
    expect(layer.methods).to.be.an('array').that.includes('GET');
    expect(layer.match('/v1/mailings/m_1')).to.equal(true);
    expect(layer.params('/v1/mailings/m_1', layer.captures('/v1/mailings/m_1'))).to.deep.equal({ id: 'm_1' });
    expect(layer.stack).to.be.an('array').with.length(1);
    expect(layer.path).to.equal('/v1/mailings/:id');
  });

  it("sets what @koa/router's own dispatch sets: params and the matched route's template", async () => {
    const app = new Koa();
    const seen: Record<string, unknown>[] = [];
    const record = (ctx: Context): void => {
      seen.push({ params: { ...ctx.params }, requestParams: { ...(ctx.request as { params?: object }).params }, route: matchedRoute(ctx) });
    };
    const router = new Router();
    router.get('/v1/mailings/:id', record);
    // The library's own dispatch, then ours, on the same request.
    await (router.routes() as Koa.Middleware)(contextFor(app, 'GET', '/v1/mailings/m_1'), async () => undefined);
    await firstMatchingRoute(router)(contextFor(app, 'GET', '/v1/mailings/m_1'), async () => undefined);
    expect(seen).to.have.length(2);
    expect(seen[0]).to.deep.equal({ params: { id: 'm_1' }, requestParams: { id: 'm_1' }, route: '/v1/mailings/:id' });
    expect(seen[1]).to.deep.equal(seen[0]);
  });

  it('passes what no route takes to @koa/router, which records the paths that matched (ctx.matched, for the 405)', async () => {
    const app = new Koa();
    const router = new Router();
    router.get('/v1/mailings/:id', () => undefined);
    const ctx = contextFor(app, 'DELETE', '/v1/mailings/m_1');
    let passed = false;
    await firstMatchingRoute(router)(ctx, async () => {
      passed = true;
    });
    expect(passed).to.equal(true);
    expect((ctx as { matched?: unknown[] }).matched)
      .to.be.an('array')
      .with.length(1);
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
