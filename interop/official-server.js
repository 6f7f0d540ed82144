// The official npm `socket.io` server, playing the chat gateway of contract.md section 5 closely
// enough to prove the SDK's Socket.IO code against an implementation nobody here wrote.
// Usage: node official-server.js '{"pingInterval":300,"pingTimeout":300}'
// Prints one JSON object per line on stdout: first {"event":"listening","port":N}, then what it sees.
'use strict';
const http = require('http');
const { Server } = require('socket.io');

const opts = JSON.parse(process.argv[2] || '{}');
const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const now = () => new Date().toISOString();

const httpServer = http.createServer();
const io = new Server(httpServer, {
  transports: ['websocket'],
  pingInterval: opts.pingInterval || 25000,
  pingTimeout: opts.pingTimeout || 20000,
  connectTimeout: opts.connectTimeout || 45000,
});

// Tokens: "good-token" for user "alice"; "expired-token" refused as expired; anything else unauthorized.
io.use((socket, next) => {
  const auth = socket.handshake.auth || {};
  print({ event: 'handshake', auth: Object.keys(auth) });
  if (auth.token === 'good-token') return next();
  const code = auth.token === 'expired-token' ? 'token_expired' : 'unauthorized';
  const err = new Error(code);
  err.data = { code };
  next(err);
});

let seq = 0;
function message(roomId, text) {
  seq += 1;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    roomId, seq, senderId: 'bob', parts: [{ type: 'text', text }],
    clientMessageId: `c-${seq}`, createdAt: now(), reactions: {},
  };
}

io.on('connection', (socket) => {
  print({ event: 'connection', sid: socket.id });
  socket.conn.on('packet', (p) => { if (p.type === 'pong') print({ event: 'pong', sid: socket.id }); });
  socket.on('disconnect', (reason) => print({ event: 'disconnect', sid: socket.id, reason }));

  socket.on('join-room', (payload, ack) => {
    print({ event: 'join-room', payload, hasAck: typeof ack === 'function' });
    const roomId = payload && payload.roomId;
    if (roomId === 'forbidden-room') {
      if (ack) ack({ ok: false, error: { code: 'forbidden', message: 'Not a member of this room' } });
      return;
    }
    for (const r of socket.rooms) if (r !== socket.id) socket.leave(r);
    socket.join(roomId);
    if (ack) ack({ ok: true, room: { id: roomId, name: 'Interop', memberIds: ['alice', 'bob'], createdAt: now(), lastMessageSeq: seq } });
    // A binary event first: a text-only client must swallow its attachment frame, or the
    // next text frame would be taken for the attachment.
    socket.emit('file-chunk', { name: 'a.bin' }, Buffer.from([1, 2, 3, 4]));
    const burst = opts.burst || 1;
    for (let i = 0; i < burst; i++) socket.emit('new-message', message(roomId, `hello ${i + 1}`));
  });

  socket.on('leave-room', (payload, ack) => {
    print({ event: 'leave-room', payload });
    if (payload && payload.roomId) socket.leave(payload.roomId);
    if (ack) ack({ ok: true });
  });
});

// Commands on stdin, one per line: "expire" sends session-expired then kicks every socket;
// "kick" kicks every socket (server-side disconnect); "emit <roomId> <text>" sends a message to a room.
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const [cmd, ...rest] = line.trim().split(' ');
  if (cmd === 'expire') {
    for (const s of io.of('/').sockets.values()) { s.emit('session-expired', { code: 'token_expired' }); s.disconnect(true); }
  } else if (cmd === 'kick') {
    for (const s of io.of('/').sockets.values()) s.disconnect(true);
  } else if (cmd === 'emit') {
    io.to(rest[0]).emit('new-message', message(rest[0], rest.slice(1).join(' ')));
  }
  print({ event: 'done', cmd });
}).on('close', () => { io.close(); process.exit(0); });

httpServer.listen(0, '127.0.0.1', () => print({ event: 'listening', port: httpServer.address().port }));
