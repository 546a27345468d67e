// The baseline of bench:redirect: the least a Node.js server can do per redirect.
const http = require('node:http');

const server = http.createServer((req, res) => {
  res.writeHead(302, { Location: 'https://example.com/', 'Content-Length': '0' });
  res.end();
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
