// The peer server of the fan-out and latency benchmarks: the official socket.io 4 server, default options
// (no compression), websocket only. Members join the room named in their handshake query (?room=R).
//   POST /send?room=R  with a JSON body: io.to(R).emit("new-message", body), then 200 {}   (the REST sender)
//   a client's "send" event with a payload: io.to(its room).emit("new-message", payload)    (the relay)
// Prints "LISTENING <port>" once it accepts connections. Usage: node fanout-server.js [--port N]
'use strict';
const http = require('http');
const { Server } = require('socket.io');

const args = process.argv.slice(2);
const port = Number(args[args.indexOf('--port') + 1] || 0);

const httpServer = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (req.method !== 'POST' || url.pathname !== '/send') {
    res.writeHead(404).end();
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch (e) {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad json"}');
      return;
    }
    io.to(url.searchParams.get('room')).emit('new-message', body);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

// Idle keep-alive connections stay open (Node closes them after 5 s by default): a sender's connections wait
// while the other server's runs take their turn.
httpServer.keepAliveTimeout = 0;
const io = new Server(httpServer, { transports: ['websocket'] });
io.on('connection', (socket) => {
  const room = String(socket.handshake.query.room || '');
  if (room) socket.join(room);
  socket.on('send', (payload) => io.to(room).emit('new-message', payload));
});

httpServer.listen(port, '127.0.0.1', () => {
  console.log('LISTENING ' + httpServer.address().port);
});
process.stdin.on('end', () => process.exit(0)); // the benchmark closed our stdin: stop
process.stdin.resume();
