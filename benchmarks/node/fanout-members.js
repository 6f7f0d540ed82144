// The members of a fan-out benchmark: N official socket.io-client connections in this process, each
// recording when every "new-message" arrives. A message's parts[0].text is "<epoch microseconds at send>".
// Usage: node fanout-members.js --url URL --count N [--tokens FILE] [--api-key K --join R] [--room R]
//   --tokens FILE: a JSON array of session tokens (the reference server's handshake auth.token); member i
//                  connects with token i, for as many tokens as the file holds
//   --api-key K --join R: the members past the tokens connect with auth.apiKey K (the reference server's
//                  API-key connection: nobody's, no presence) and emit join-room {roomId: R}, awaiting its ack
//   --room R:      the room to join through the handshake query (the Node peer server)
// Prints "READY" once all are connected (and joined). Commands on stdin, one a line:
//   EXPECT n   print "RESULT {json}" once n deliveries arrived in all, or after 5 s without one
//   REPORT     print "RESULT {json}" now
//   RESET      forget the figures so far (after a warm-up); answers "RESET_DONE"
// RESULT: {received, p50, p99, p999 (ms), first, last (epoch microseconds of the first and last arrival),
//          cpu (this process's CPU time since RESET over the wall time to the last arrival: 1.0 is one core),
//          disconnects (reason -> members disconnected since the start),
//          short (members with fewer than an equal share of the expected deliveries), fewest (the least any got)}
'use strict';
const fs = require('fs');
const readline = require('readline');
const { io } = require('socket.io-client');

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const url = opt('--url');
const count = Number(opt('--count'));
const tokens = opt('--tokens') ? JSON.parse(fs.readFileSync(opt('--tokens'), 'utf8')) : null;
const room = opt('--room');
const apiKey = opt('--api-key');
const join = opt('--join');

const nowMicros = () => (performance.timeOrigin + performance.now()) * 1000;
let latencies = new Float64Array(1 << 16);
let received = 0;
let first = 0;
let last = 0;
let expected = Infinity;
let reported = false;
let resetCpu = process.cpuUsage();
let resetAt = nowMicros();
const sockets = [];
const disconnects = {}; // reason -> count, since the start

let perMember = new Uint32Array(count); // deliveries since RESET, per member
let watch; // the EXPECT's timer that reports after 5 s without a delivery

function onMessage(i, message) {
  perMember[i]++;
  const t = nowMicros();
  const sent = Number(message.parts[0].text);
  if (received === latencies.length) {
    const bigger = new Float64Array(latencies.length * 2);
    bigger.set(latencies);
    latencies = bigger;
  }
  latencies[received++] = (t - sent) / 1000;
  if (first === 0) first = t;
  last = t;
  if (received >= expected) report();
}

function report() {
  if (reported) return;
  reported = true;
  const sorted = latencies.slice(0, received).sort();
  const pct = (p) => (received === 0 ? NaN : sorted[Math.min(received - 1, Math.max(0, Math.ceil(p / 100 * received) - 1))]);
  const used = process.cpuUsage(resetCpu);
  const wall = (received === 0 ? nowMicros() : last) - resetAt;
  const cpu = wall > 0 ? (used.user + used.system) / wall : NaN;
  // Members that got fewer than an equal share of the expected deliveries (when some are missing).
  const share = Number.isFinite(expected) ? expected / count : 0;
  let short = 0;
  let fewest = Infinity;
  for (let k = 0; k < count; k++) {
    if (perMember[k] < share) short++;
    fewest = Math.min(fewest, perMember[k]);
  }
  console.log('RESULT ' + JSON.stringify({ received, p50: pct(50), p99: pct(99), p999: pct(99.9), first, last, cpu,
    disconnects, short, fewest }));
}

function connectOne(i) {
  return new Promise((resolve, reject) => {
    const options = { transports: ['websocket'], forceNew: true, reconnection: false };
    const byKey = apiKey && !(tokens && i < tokens.length);
    if (byKey) options.auth = { apiKey };
    else if (tokens) options.auth = { token: tokens[i] };
    if (room) options.query = { room };
    const socket = io(url, options);
    socket.on('new-message', (message) => onMessage(i, message));
    socket.on('disconnect', (reason) => { disconnects[reason] = (disconnects[reason] || 0) + 1; });
    socket.once('connect', () => {
      if (!byKey) { resolve(socket); return; }
      socket.emit('join-room', { roomId: join }, (ack) => {
        if (ack && ack.ok) resolve(socket);
        else reject(new Error('member ' + i + ': join-room ' + JSON.stringify(ack && ack.error)));
      });
    });
    socket.once('connect_error', (e) => reject(new Error('member ' + i + ': ' + e.message)));
    sockets.push(socket);
  });
}

async function main() {
  for (let i = 0; i < count; i += 100) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 100); j++) batch.push(connectOne(j));
    await Promise.all(batch);
  }
  console.log('READY');
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const [cmd, n] = line.trim().split(/\s+/);
  if (cmd === 'EXPECT') {
    expected = Number(n);
    if (received >= expected) report();
    // Deliveries that stop coming (dropped connections) are not waited for: report 5 s after the last one.
    let seen = -1;
    let quietSince = Date.now();
    clearInterval(watch);
    watch = setInterval(() => {
      if (reported) { clearInterval(watch); return; }
      if (received !== seen) { seen = received; quietSince = Date.now(); }
      else if (Date.now() - quietSince > 5000) { clearInterval(watch); report(); }
    }, 250);
  } else if (cmd === 'REPORT') {
    report();
  } else if (cmd === 'RESET') {
    clearInterval(watch); // an earlier EXPECT's watch must not report this run
    received = 0; first = 0; last = 0; expected = Infinity; reported = false;
    resetCpu = process.cpuUsage(); resetAt = nowMicros(); perMember = new Uint32Array(count);
    // The sender waits for this: deliveries of its run arriving before the RESET was read would be wiped.
    console.log('RESET_DONE');
  }
}).on('close', () => {
  for (const s of sockets) s.close();
  process.exit(0);
});

main().catch((e) => { console.log('ERROR ' + e.message); process.exit(1); });
