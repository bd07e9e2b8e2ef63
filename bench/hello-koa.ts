import Koa from 'koa';

/** The baseline: a bare Koa hello-world, the most a Koa process can answer on this machine. */
const app = new Koa();
app.use((ctx) => {
  ctx.body = { hello: 'world' };
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
