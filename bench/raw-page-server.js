// The baseline of the bio-page case of bench:redirect: a node:http server answering every request
// with one fixed HTML page of the size given in PAGE_BYTES (the size of the bio page measured).
const http = require('node:http');

const size = Number(process.env.PAGE_BYTES ?? 6000);
const page = Buffer.from(
  `<!doctype html><title>x</title><p>${'x'.repeat(Math.max(0, size - 32))}</p>`,
);
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': page.length });
  res.end(page);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
