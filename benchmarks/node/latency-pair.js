// The Node pair of the latency benchmark: a sender and a receiver (official socket.io-client) in this
// process, through fanout-server.js as the relay (client emits "send", the server emits "new-message" to
// the room, the receiver gets it). Sends at --rate messages a second for --seconds, then waits up to 5 s.
// Usage: node latency-pair.js --url URL --rate R --seconds S
// Prints "RESULT {sent, received, p50, p99, p999}" (milliseconds).
'use strict';
const { io } = require('socket.io-client');

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const url = opt('--url');
const rate = Number(opt('--rate'));
const seconds = Number(opt('--seconds'));
const total = Math.round(rate * seconds);
const room = 'latency-' + process.pid;

const latencies = new Float64Array(total);
let received = 0;
let sent = 0;

function connect() {
  return new Promise((resolve, reject) => {
    const s = io(url, { transports: ['websocket'], forceNew: true, reconnection: false, query: { room } });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

function finish() {
  const sorted = latencies.slice(0, received).sort();
  const pct = (p) => (received === 0 ? NaN : sorted[Math.min(received - 1, Math.max(0, Math.ceil(p / 100 * received) - 1))]);
  console.log('RESULT ' + JSON.stringify({ sent, received, p50: pct(50), p99: pct(99), p999: pct(99.9) }));
  process.exit(0);
}

async function main() {
  const sender = await connect();
  const receiver = await connect();
  let warmed = 0;
  let onWarm = null;
  receiver.on('new-message', (m) => {
    const t = performance.now();
    if (m.warm) {
      if (++warmed === 300) onWarm();
      return;
    }
    if (received < total) latencies[received++] = t - Number(m.parts[0].text);
    if (received === total) finish();
  });
  // warm-up: 300 messages not counted
  await new Promise((resolve) => {
    onWarm = resolve;
    for (let i = 0; i < 300; i++) sender.emit('send', { warm: true, parts: [{ type: 'text', text: '0' }] });
  });
  received = 0;
  const start = performance.now();
  const tick = () => {
    const due = Math.min(total, Math.floor((performance.now() - start) / 1000 * rate));
    while (sent < due) {
      sender.emit('send', { parts: [{ type: 'text', text: String(performance.now()) }] });
      sent++;
    }
    if (sent < total) setImmediate(tick);
    else setTimeout(finish, 5000);
  };
  tick();
}

main().catch((e) => { console.log('ERROR ' + e.message); process.exit(1); });
