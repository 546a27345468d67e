// The baseline of bench:api: a bare express app with the routes bench:api measures, answering
// bodies of the same shape from memory (no database, no guards, no validation, no logging).
'use strict';
const express = require('express');
const { rows, user } = require('./baseline-bodies');

const app = express();
app.disable('x-powered-by');
app.use(express.json({ limit: '1mb' }));
let next = 100;
const authorized = (req, res) => {
  if (!/^Bearer \S+$/.test(req.headers.authorization ?? '')) {
    res
      .status(401)
      .json({ errors: [{ status: 401, title: 'Unauthorized', code: 'unauthorized' }] });
    return false;
  }
  return true;
};

app.get('/health', (_req, res) => res.json({ status: 'ok', info: { database: { status: 'up' } } }));
app.get('/v1/user', (req, res) => authorized(req, res) && res.json({ data: user }));
app.get('/v1/links/', (req, res) => {
  if (!authorized(req, res)) return;
  const perPage = Number(req.query.results_per_page ?? 25);
  res.json({
    data: rows.slice(0, perPage),
    meta: { page: 1, results_per_page: perPage, total: 25, total_results: 25, total_pages: 1 },
    links: {
      first: req.originalUrl,
      last: req.originalUrl,
      next: null,
      prev: null,
      self: req.originalUrl,
    },
  });
});
app.post('/v1/links', (req, res) => {
  if (!authorized(req, res)) return;
  if (typeof req.body?.location_url !== 'string') {
    res.status(400).json({ errors: [{ status: 400, title: 'location_url is required.' }] });
    return;
  }
  res.status(201).json({ data: { id: (next += 1) } });
});
app.post('/v1/qr-codes', (req, res) => {
  if (!authorized(req, res)) return;
  if (typeof req.body?.name !== 'string') {
    res.status(400).json({ errors: [{ status: 400, title: 'name is required.' }] });
    return;
  }
  res.status(201).json({ data: { id: (next += 1) } });
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
