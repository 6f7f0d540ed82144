// The Node side of the latency benchmark's layouts (LatencyLayoutsBenchmark): one device's process, a sender,
// a receiver, or both (official socket.io-client), through fanout-server.js as the relay. The same commands as
// our peer (LatencyPeer.java), one a line on stdin, answers on stdout:
//   CLOCK                      -> CLOCK <ns>: process.hrtime.bigint(), CLOCK_MONOTONIC, which every process of
//                                 the machine shares (the benchmark checks that it is)
//   SEND tag rate seconds      -> (a sender) sends rate*seconds messages paced at rate, text "tag:<ns when sent>",
//                                 then SENT tag n
//   REPORT tag total waitMs    -> (a receiver) waits until total messages of tag came (at most waitMs), then
//                                 RESULT tag received p50 p99 p999 (the receiver's clock minus the stamp, ms);
//                                 with --trace-dir DIR it first writes DIR/node-<tag>-<pid>.txt, a line
//                                 "<stamp> <ns at the event>" per message (the per-stage breakdown reads it)
// Usage: node latency-peer.js --url URL --room R [--sender] [--receiver] [--trace-dir DIR]. Prints READY once
// connected.
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const { io } = require('socket.io-client');

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const url = opt('--url');
const room = opt('--room');
const isSender = args.includes('--sender');
const isReceiver = args.includes('--receiver');
const traceDir = opt('--trace-dir'); // undefined: no stamps or receive times are kept

// tag -> { values: number[], waiter, trace: [stamp string, receive bigint, ...] with --trace-dir, else null }
const byTag = new Map();

function connect() {
  return new Promise((resolve, reject) => {
    const s = io(url, { transports: ['websocket'], forceNew: true, reconnection: false, query: { room } });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

function onMessage(m) {
  const now = process.hrtime.bigint();
  const text = m.parts[0].text;
  const colon = text.indexOf(':');
  if (colon < 0) return;
  const tag = text.slice(0, colon);
  let t = byTag.get(tag);
  if (!t) byTag.set(tag, (t = { values: [], waiter: null, trace: traceDir ? [] : null }));
  const stamp = text.slice(colon + 1);
  t.values.push(Number(now - BigInt(stamp)) / 1e6);
  if (t.trace) t.trace.push(stamp, now); // formatted at REPORT, off the receive path
  if (t.waiter) t.waiter();
}

function pct(sorted, p) {
  const n = sorted.length;
  return n === 0 ? NaN : sorted[Math.min(n - 1, Math.max(0, Math.ceil(p / 100 * n) - 1))];
}

function report(tag, total, waitMs) {
  return new Promise((resolve) => {
    let t = byTag.get(tag);
    if (!t) byTag.set(tag, (t = { values: [], waiter: null, trace: traceDir ? [] : null }));
    const done = () => {
      clearTimeout(timer);
      byTag.delete(tag);
      if (t.trace) {
        const lines = [];
        for (let i = 0; i < t.trace.length; i += 2) lines.push(`${t.trace[i]} ${t.trace[i + 1]}\n`);
        fs.writeFileSync(path.join(traceDir, `node-${tag}-${process.pid}.txt`), lines.join(''));
      }
      const sorted = Float64Array.from(t.values).sort();
      const f = (x) => x.toFixed(6);
      resolve(`RESULT ${tag} ${sorted.length} ${f(pct(sorted, 50))} ${f(pct(sorted, 99))} ${f(pct(sorted, 99.9))}`);
    };
    const timer = setTimeout(done, waitMs);
    t.waiter = () => { if (t.values.length >= total) done(); };
    t.waiter();
  });
}

// Paced as our peer: every message due by now is sent, then the loop yields until the next slot.
function send(sender, tag, rate, seconds) {
  return new Promise((resolve) => {
    const total = Math.round(rate * seconds);
    const interval = 1e9 / rate;
    const start = process.hrtime.bigint();
    let sent = 0;
    const tick = () => {
      const due = Math.min(total, Math.floor(Number(process.hrtime.bigint() - start) / interval) + 1);
      while (sent < due) {
        sender.emit('send', { parts: [{ type: 'text', text: tag + ':' + process.hrtime.bigint() }] });
        sent++;
      }
      if (sent < total) setImmediate(tick);
      else resolve(sent);
    };
    tick();
  });
}

async function main() {
  const receiver = isReceiver ? await connect() : null;
  if (receiver) receiver.on('new-message', onMessage);
  const sender = isSender ? await connect() : null;
  console.log('READY');
  const lines = readline.createInterface({ input: process.stdin });
  let queue = Promise.resolve();
  lines.on('line', (line) => {
    const cmd = line.trim().split(' ');
    queue = queue.then(async () => {
      if (cmd[0] === 'CLOCK') console.log('CLOCK ' + process.hrtime.bigint());
      else if (cmd[0] === 'SEND') console.log(`SENT ${cmd[1]} ${await send(sender, cmd[1], Number(cmd[2]), Number(cmd[3]))}`);
      else if (cmd[0] === 'REPORT') console.log(await report(cmd[1], Number(cmd[2]), Number(cmd[3])));
      else console.log('ERROR unknown command ' + line);
    });
  });
  lines.on('close', () => process.exit(0));
}

main().catch((e) => { console.log('ERROR ' + e.message); process.exit(1); });
