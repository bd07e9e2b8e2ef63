/**
 * Where a request's client address comes from (Koa's ctx.ip), for the API and the developer space
 * alike: every per-address guard (failed sign-ins and authentications, email budgets, proof links)
 * counts by it. Behind `hops` proxies that each append the address they received from to
 * X-Forwarded-For, the client is the entry `hops` from the right: entries further left are whatever
 * the client sent, and believing them would let it pick a new address for every request.
 */
export function trustProxies(app: { proxy: boolean; maxIpsCount: number }, hops: number): void {
  app.proxy = hops > 0;
  // Koa keeps the last maxIpsCount entries and takes the first of them.
  app.maxIpsCount = hops;
}
