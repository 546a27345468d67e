'use strict';
// A round-robin TCP proxy for bench:cluster: PORT, and BACKENDS as "port,port,...". Each new
// connection goes to the next backend; bytes are piped both ways. Sends "ready" to its parent.
const net = require('node:net');

const backends = process.env.BACKENDS.split(',').map(Number);
let next = 0;
const server = net.createServer((client) => {
  const port = backends[next];
  next = (next + 1) % backends.length;
  const upstream = net.connect(port, '127.0.0.1');
  client.pipe(upstream).pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close);
  upstream.on('error', close);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => process.exit(0));
