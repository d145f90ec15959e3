// Ceiling for /v1/send: Express 5 with the same JSON parser and body limit as sendbox,
// and a handler that only answers. Whatever sendbox does beyond this is its own cost.
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json({ limit: '36mb' }));
app.post('/v1/send', (req, res) => {
  res.json({ success: true, keys: Object.keys(req.body).length });
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`express-json listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
