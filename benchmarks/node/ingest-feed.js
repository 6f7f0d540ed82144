// The feed of the ingest benchmark: an official socket.io 4.8.4 server that accepts any CONNECT (any auth)
// and then writes EVENTS pre-built `42["new-message",{...}]` frames to the new socket as fast as it can.
// The frames are built once, as WebSocket frames, and written through the engine's own pre-encoded-frame
// path (the one socket.io's broadcasts use), so neither the socket.io encoder nor the ws framing costs
// anything per event: the client's reading is what is measured.
// Usage: node ingest-feed.js EVENTS   (prints "PORT <n>" once listening on 127.0.0.1)
"use strict";
const http = require("http");
const { Server } = require("socket.io");

const events = parseInt(process.argv[2] || "200000", 10);
const CHUNK = 1 << 20; // write about 1 MiB of whole frames at a time

function uuid(n, salt) {
  const h = (n * 2654435761 + salt * 40503) >>> 0;
  const hex = h.toString(16).padStart(8, "0");
  return `${hex}-${hex.slice(0, 4)}-4${hex.slice(1, 4)}-8${hex.slice(5, 8)}-${hex}${hex.slice(0, 4)}`;
}

// a realistic Message (contract.md): about 300 bytes of JSON; seq and rev go up so that every one is new
function message(seq) {
  return JSON.stringify({
    id: uuid(seq, 1),
    roomId: "5b0e7a5c-2f7e-4d1a-9c3b-7e0d2a4f6b18",
    seq: seq,
    rev: seq,
    senderId: "user_" + (seq % 50),
    parts: [{ type: "text", text: "Message " + seq + ": see you at the stand-up, bring notes" }],
    clientMessageId: uuid(seq, 2),
    createdAt: new Date(Date.UTC(2026, 10, 23, 0, 0, 0) + seq).toISOString(),
    reactions: {},
  });
}

function wsTextFrame(text) {
  const payload = Buffer.from(text, "utf8");
  let header;
  if (payload.length < 126) {
    header = Buffer.from([0x81, payload.length]);
  } else if (payload.length < 65536) {
    header = Buffer.from([0x81, 126, payload.length >> 8, payload.length & 0xff]);
  } else {
    throw new Error("frame too large for this feed");
  }
  return Buffer.concat([header, payload]);
}

// whole frames, grouped into chunks of about CHUNK bytes
const chunks = [];
let sample = "";
{
  let pending = [];
  let size = 0;
  for (let seq = 1; seq <= events; seq++) {
    const text = '42["new-message",' + message(seq) + "]";
    if (seq === 1) sample = text;
    const frame = wsTextFrame(text);
    pending.push(frame);
    size += frame.length;
    if (size >= CHUNK || seq === events) {
      chunks.push(Buffer.concat(pending));
      pending = [];
      size = 0;
    }
  }
}

const server = http.createServer();
const io = new Server(server, {
  transports: ["websocket"],
  perMessageDeflate: false,
  pingInterval: 60000,
  pingTimeout: 60000,
  maxHttpBufferSize: 1e6,
});

io.on("connection", (socket) => {
  const engineSocket = socket.conn;
  const start = () => {
    const ws = engineSocket.transport.socket; // the ws WebSocket under the engine
    let i = 0;
    const next = () => {
      if (i >= chunks.length || ws.readyState !== 1) return;
      const chunk = chunks[i++];
      ws._sender.sendFrame([chunk], (err) => {
        if (!err) next();
      });
    };
    next();
  };
  // the CONNECT answer must be on the wire before the first frame
  if (engineSocket.writeBuffer.length > 0) engineSocket.once("drain", start);
  else setImmediate(start);
});

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`SAMPLE ${Buffer.byteLength(sample)} ${sample}\n`);
  process.stdout.write(`PORT ${server.address().port}\n`);
});
process.stdin.on("end", () => process.exit(0)); // the benchmark closed our stdin: stop
process.stdin.resume();
