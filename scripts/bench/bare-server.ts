// The baseline for the API benchmark: a bare Fastify route, no auth, no
// database, in a process of its own as the service is. Prints its URL.
// /bare answers a small JSON object (the aim's baseline); /bare-sized answers
// ?bytes=N bytes of JSON, so that the cost of sending a report-sized body can
// be told apart from the service's own work.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ status: 'ok' }));
const bodies = new Map<number, string>();
app.get<{ Querystring: { bytes?: string } }>('/bare-sized', async (req, reply) => {
  const n = Math.min(Math.max(Number(req.query.bytes) || 0, 16), 10_000_000);
  let body = bodies.get(n);
  if (!body) {
    body = JSON.stringify({ padding: 'x'.repeat(n - 16) }).padEnd(n, ' ');
    bodies.set(n, body);
  }
  return reply.type('application/json; charset=utf-8').send(body);
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening on ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
