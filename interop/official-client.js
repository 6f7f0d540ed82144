// The official npm `socket.io-client`, speaking to the reference server as contract.md section 5 says.
// Usage: node official-client.js '{"origin":"http://127.0.0.1:PORT","token":"…","auth":{…}}'
// Connects once with the given auth; prints one JSON object per line on stdout for everything it sees.
// Commands on stdin, one per line: "join <roomId>", "leave <roomId>", "typing <roomId> <true|false>",
// "close". Every command that emits prints the acknowledgement as {event: "ack", of, err?, ack}.
'use strict';
const { io } = require('socket.io-client');

const cfg = JSON.parse(process.argv[2]);
const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');

const socket = io(cfg.origin, {
  transports: ['websocket'],
  auth: cfg.auth,
  reconnection: false,
  timeout: 10000,
});

socket.on('connect', () => print({ event: 'connect', id: socket.id }));
socket.on('connect_error', (err) => print({ event: 'connect_error', message: err.message, data: err.data }));
socket.on('disconnect', (reason) => print({ event: 'disconnect', reason }));
socket.onAny((name, ...args) => print({ event: 'server-event', name, args }));

require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const [cmd, arg, flag] = line.trim().split(' ');
  if (cmd === 'join' || cmd === 'leave') {
    socket.timeout(5000).emit(`${cmd}-room`, { roomId: arg }, (err, ack) => {
      print({ event: 'ack', of: `${cmd}-room`, err: err ? String(err) : undefined, ack });
    });
  } else if (cmd === 'typing') {
    socket.timeout(5000).emit('typing', { roomId: arg, isTyping: flag === 'true' }, (err, ack) => {
      print({ event: 'ack', of: 'typing', err: err ? String(err) : undefined, ack });
    });
  } else if (cmd === 'close') {
    socket.close();
    process.exit(0);
  }
}).on('close', () => { socket.close(); process.exit(0); });
