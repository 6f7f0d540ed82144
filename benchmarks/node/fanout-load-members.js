// One of the fan-out benchmark's member processes: N WebSocket connections speaking just enough Engine.IO 4 and
// Socket.IO 5 to join (open, CONNECT with auth, join-room's ack, pongs), which count their "new-message" events
// without parsing them: the frame's first bytes are compared with 42["new-message", and the send time is read
// from the digits after the first "text":" (a message's parts[0].text is the sender's CLOCK_MONOTONIC in
// microseconds, the clock of process.hrtime here and of System.nanoTime in the JVM). No socket.io-client, no
// JSON.parse a frame, no string a frame: the cost a delivery is the WebSocket frame header and a byte compare.
// Usage: node fanout-load-members.js --port P --count N [--from I] [--tokens FILE] [--api-key K --join R]
//                                    [--room R]
//   --from I:      this process's members are the room's members I .. I+N-1 (for --tokens)
//   --tokens FILE: a JSON array of session tokens; member g (I + i) connects with token g while there is one
//   --api-key K --join R: the members past the tokens connect with auth {apiKey: K} and emit join-room R
//   --room R:      the room to join through the handshake query (the Node peer server)
// Prints "READY" once all are connected (and joined). Commands on stdin, one a line:
//   EXPECT n   print "RESULT {json}" once n deliveries arrived here, or after 5 s without one
//   REPORT     print "RESULT {json}" now
//   RESET      forget the figures so far; answers "RESET_DONE"
// RESULT: {received, first, last (CLOCK_MONOTONIC microseconds of the first and last arrival), hist (latency
//          histogram: [bucket, count] pairs, bucket = floor(100 ln(microseconds)), about 1 % wide),
//          closed (members whose connection closed), short (members with fewer than an equal share of the
//          expected deliveries), fewest (the least any got)}
'use strict';
const net = require('net');
const fs = require('fs');
const crypto = require('crypto');
const readline = require('readline');

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const port = Number(opt('--port'));
const count = Number(opt('--count'));
const from = Number(opt('--from') || 0);
const tokens = opt('--tokens') ? JSON.parse(fs.readFileSync(opt('--tokens'), 'utf8')) : [];
const room = opt('--room');
const apiKey = opt('--api-key');
const join = opt('--join');

const NEW_MESSAGE = Buffer.from('["new-message",');
const TEXT = Buffer.from('"text":"');
const BUCKETS = 2400; // up to e^24 µs
let hist = new Float64Array(BUCKETS);
let received = 0;
let first = 0;
let last = 0;
let expected = Infinity;
let reported = false;
let perMember = new Uint32Array(count);
let closed = 0;
let watch;
const members = [];

const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

// A client frame is masked (RFC 6455); a zero mask leaves the payload as it is.
function frame(opcode, payload) {
  const body = Buffer.from(payload);
  const len = body.length;
  const head = len < 126 ? Buffer.from([0x80 | opcode, 0x80 | len, 0, 0, 0, 0])
    : Buffer.from([0x80 | opcode, 0x80 | 126, len >> 8, len & 0xff, 0, 0, 0, 0]);
  return Buffer.concat([head, body]);
}

function connect(i) {
  return new Promise((resolve, reject) => {
    const g = from + i;
    const byKey = apiKey && g >= tokens.length;
    const auth = byKey ? { apiKey } : (g < tokens.length ? { token: tokens[g] } : {});
    const m = { i, stage: 0, rest: null, parts: null, resolve, reject, auth, byKey };
    const socket = net.connect(port, '127.0.0.1');
    m.socket = socket;
    socket.setNoDelay(true);
    socket.on('connect', () => {
      socket.write('GET /socket.io/?EIO=4&transport=websocket' + (room ? '&room=' + encodeURIComponent(room) : '')
        + ' HTTP/1.1\r\nHost: 127.0.0.1:' + port + '\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n'
        + 'Sec-WebSocket-Key: ' + crypto.randomBytes(16).toString('base64') + '\r\nSec-WebSocket-Version: 13\r\n\r\n');
    });
    socket.on('data', (chunk) => onData(m, chunk));
    socket.on('error', (e) => { if (m.stage < 4) reject(new Error('member ' + g + ': ' + e.message)); });
    socket.on('close', () => { if (m.stage === 4) closed++; else reject(new Error('member ' + g + ': closed')); });
    members.push(m);
  });
}

function onData(m, chunk) {
  const now = monotonicMicros(); // one reading a chunk: its frames arrived together
  const b = m.rest ? Buffer.concat([m.rest, chunk]) : chunk;
  m.rest = null;
  let off = 0;
  if (m.stage === 0) {
    const end = b.indexOf('\r\n\r\n');
    if (end < 0) { m.rest = b; return; }
    if (b.toString('latin1', 0, 12) !== 'HTTP/1.1 101') { m.reject(new Error(b.toString('latin1', 0, end))); return; }
    off = end + 4;
    m.stage = 1;
  }
  while (b.length - off >= 2) {
    let len = b[off + 1] & 0x7f;
    let head = 2;
    if (len === 126) {
      if (b.length - off < 4) break;
      len = b.readUInt16BE(off + 2); head = 4;
    } else if (len === 127) {
      if (b.length - off < 10) break;
      len = Number(b.readBigUInt64BE(off + 2)); head = 10;
    }
    if (b.length - off < head + len) break;
    const fin = (b[off] & 0x80) !== 0;
    const opcode = b[off] & 0x0f;
    const start = off + head;
    off = start + len;
    if (opcode === 1 && fin) {
      onText(m, b, start, off, now);
    } else if (opcode === 1 || opcode === 0) { // a fragmented message: kept until its last fragment
      m.parts = m.parts ? Buffer.concat([m.parts, b.subarray(start, off)]) : Buffer.from(b.subarray(start, off));
      if (fin) { const whole = m.parts; m.parts = null; onText(m, whole, 0, whole.length, now); }
    } else if (opcode === 9) {
      m.socket.write(frame(10, b.subarray(start, off)));
    }
  }
  if (off < b.length) m.rest = Buffer.from(b.subarray(off)); // a copy: the chunk is not kept alive
}

function onText(m, b, start, end, now) {
  if (m.stage === 4) {
    if (b[start] === 0x34 && b[start + 1] === 0x32
      && b.compare(NEW_MESSAGE, 0, NEW_MESSAGE.length, start + 2, start + 2 + NEW_MESSAGE.length) === 0) {
      delivered(m, b, start, end, now);
    } else if (b[start] === 0x32 && end - start === 1) {
      m.socket.write(frame(1, '3')); // Engine.IO ping: pong
    }
    return;
  }
  const text = b.toString('utf8', start, Math.min(end, start + 200));
  if (m.stage === 1 && text[0] === '0') {
    m.socket.write(frame(1, '40' + JSON.stringify(m.auth)));
    m.stage = 2;
  } else if (m.stage === 2 && text.startsWith('40')) {
    if (m.byKey) {
      m.socket.write(frame(1, '420' + JSON.stringify(['join-room', { roomId: join }])));
      m.stage = 3;
    } else {
      m.stage = 4; m.resolve();
    }
  } else if (m.stage === 2 && text.startsWith('44')) {
    m.reject(new Error('member ' + (from + m.i) + ': CONNECT refused ' + text));
  } else if (m.stage === 3 && text.startsWith('430')) {
    if (text.includes('"ok":true')) { m.stage = 4; m.resolve(); }
    else m.reject(new Error('member ' + (from + m.i) + ': join-room ' + text));
  } else if (text === '2') {
    m.socket.write(frame(1, '3'));
  }
}

function delivered(m, b, start, end, now) {
  perMember[m.i]++;
  let at = b.indexOf(TEXT, start);
  let sent = 0;
  if (at >= 0 && at < end) {
    for (at += TEXT.length; at < end && b[at] >= 0x30 && b[at] <= 0x39; at++) sent = sent * 10 + (b[at] - 0x30);
  }
  const micros = Math.max(1, now - sent);
  hist[Math.min(BUCKETS - 1, Math.floor(100 * Math.log(micros)))]++;
  received++;
  if (first === 0) first = now;
  last = now;
  if (received >= expected) report();
}

function report() {
  if (reported) return;
  reported = true;
  clearInterval(watch);
  const pairs = [];
  for (let k = 0; k < BUCKETS; k++) if (hist[k] > 0) pairs.push([k, hist[k]]);
  const share = Number.isFinite(expected) ? expected / count : 0;
  let short = 0;
  let fewest = Infinity;
  for (let k = 0; k < count; k++) {
    if (perMember[k] < share) short++;
    fewest = Math.min(fewest, perMember[k]);
  }
  console.log('RESULT ' + JSON.stringify({ received, first, last, hist: pairs, closed, short, fewest }));
}

async function main() {
  for (let i = 0; i < count; i += 100) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 100); j++) batch.push(connect(j));
    await Promise.all(batch);
  }
  console.log('READY');
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const [cmd, n] = line.trim().split(/\s+/);
  if (cmd === 'EXPECT') {
    expected = Number(n);
    if (received >= expected) { report(); return; }
    // Deliveries that stop coming (closed connections) are not waited for: report 5 s after the last one.
    let seen = -1;
    let quietSince = Date.now();
    clearInterval(watch);
    watch = setInterval(() => {
      if (received !== seen) { seen = received; quietSince = Date.now(); }
      else if (Date.now() - quietSince > 5000) report();
    }, 250);
  } else if (cmd === 'REPORT') {
    report();
  } else if (cmd === 'RESET') {
    clearInterval(watch); // an earlier EXPECT's watch must not report this run
    received = 0; first = 0; last = 0; expected = Infinity; reported = false;
    hist = new Float64Array(BUCKETS); perMember = new Uint32Array(count);
    console.log('RESET_DONE');
  }
}).on('close', () => {
  for (const m of members) m.socket.destroy();
  process.exit(0);
});

main().catch((e) => { console.log('ERROR ' + e.message); process.exit(1); });
