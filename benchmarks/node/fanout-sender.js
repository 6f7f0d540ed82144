// One of the fan-out benchmark's sender processes: POSTs messages to one room over --in-flight HTTP/1.1
// keep-alive connections of its own (plain sockets, one request at a time each: no HTTP client library), each body stamped with CLOCK_MONOTONIC microseconds just before it
// is written (parts[0].text; the members read it back). Usage:
//   node fanout-sender.js --port P --path PATH [--credential C] --kind ours|node --room R --in-flight K
//   --credential C: a session token (sent as a bearer) or an API key starting sk_ (sent as x-api-key)
//   --kind ours:    the body {parts, clientMessageId}; node: a body shaped like our Message, which the Node
//                   server emits as it is (both servers carry frames of about the same size)
// Prints "READY". Commands on stdin, one a line:
//   SEND tag n perSecond   send n messages (ids tag0 .. tag<n-1>); the i-th starts no sooner than i / perSecond
//                          seconds after the first (0: as fast as the window allows); prints "SENT failed"
'use strict';
const net = require('net');
const crypto = require('crypto');
const readline = require('readline');

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const port = Number(opt('--port'));
const path = opt('--path');
const credential = opt('--credential') || '';
const ours = opt('--kind') === 'ours';
const room = opt('--room');
const inFlight = Number(opt('--in-flight') || 4);


const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

function body(id) {
  const parts = '[{"type":"text","text":"' + monotonicMicros() + '"}]';
  if (ours) return '{"parts":' + parts + ',"clientMessageId":"' + id + '"}';
  return '{"id":"' + crypto.randomUUID() + '","roomId":"' + room + '","seq":1,"rev":1,"senderId":"sender","parts":'
    + parts + ',"clientMessageId":"' + id + '","createdAt":' + Date.now() + ',"reactions":{}}';
}

// One keep-alive connection: one request at a time, its answer read as far as its end (Content-Length or chunked)
// without parsing more than the status line and the headers' framing fields.
function connection() {
  const c = { socket: null, rest: null, done: null, busy: false };
  open(c);
  return c;
}

// A connection the server closed (idle) is opened again for its next request.
function open(c) {
  const socket = net.connect(port, '127.0.0.1');
  c.socket = socket;
  c.rest = null;
  socket.setNoDelay(true);
  socket.on('close', () => {
    if (c.socket === socket) c.socket = null;
    if (c.done) { const d = c.done; c.done = null; c.busy = false; d(false); }
  });
  socket.on('data', (chunk) => {
    c.rest = c.rest ? Buffer.concat([c.rest, chunk]) : chunk;
    const end = c.rest.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = c.rest.toString('latin1', 0, end).toLowerCase();
    const status = Number(head.substring(9, 12));
    let total;
    const length = head.indexOf('content-length:');
    if (length >= 0) {
      total = end + 4 + parseInt(head.substring(length + 15), 10);
    } else if (head.includes('transfer-encoding: chunked')) {
      const last = c.rest.indexOf('\r\n0\r\n\r\n', end);
      const empty = c.rest.indexOf('0\r\n\r\n', end + 4) === end + 4;
      if (last < 0 && !empty) return;
      total = empty ? end + 9 : last + 7;
    } else {
      total = end + 4;
    }
    if (c.rest.length < total) return;
    c.rest = c.rest.length > total ? c.rest.subarray(total) : null;
    const done = c.done;
    c.done = null;
    c.busy = false;
    if (done === null) return; // an answer nobody waits for (none is expected)
    done(Math.floor(status / 100) === 2);
  });
  socket.on('error', () => {}); // 'close' follows
}

const connections = [];
for (let i = 0; i < inFlight; i++) connections.push(connection());
const head = 'POST ' + path + ' HTTP/1.1\r\nHost: 127.0.0.1:' + port + '\r\nContent-Type: application/json\r\n'
  + (credential.startsWith('sk_') ? 'x-api-key: ' + credential + '\r\n'
    : credential ? 'Authorization: Bearer ' + credential + '\r\n' : '') + 'Content-Length: ';

function send(tag, n, perSecond) {
  return new Promise((resolve) => {
    let started = 0;
    let done = 0;
    let failed = 0;
    let timer = null;
    const t0 = process.hrtime.bigint();
    const pump = () => {
      timer = null;
      for (const c of connections) {
        if (started >= n) return;
        if (c.busy) continue;
        if (perSecond > 0) {
          const due = Number(process.hrtime.bigint() - t0) / 1e9 * perSecond;
          if (started >= due) {
            timer = setTimeout(pump, Math.max(1, Math.ceil((started + 1 - due) / perSecond * 1000)));
            return;
          }
        }
        const data = body(tag + started);
        started++;
        c.busy = true;
        c.done = (ok) => {
          if (!ok) failed++;
          done++;
          if (done === n) resolve(failed);
          else if (timer === null) pump();
        };
        if (c.socket === null) open(c);
        c.socket.write(head + Buffer.byteLength(data) + '\r\n\r\n' + data);
      }
    };
    if (n === 0) resolve(0); else pump();
  });
}

let queue = Promise.resolve();
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const [cmd, tag, n, perSecond] = line.trim().split(/\s+/);
  if (cmd === 'SEND') {
    queue = queue.then(() => send(tag, Number(n), Number(perSecond))).then((failed) => console.log('SENT ' + failed));
  }
}).on('close', () => process.exit(0));
console.log('READY');
