// The npm `standardwebhooks` package (the Standard Webhooks reference implementation), as an independent
// check of the reference server's signatures and of the SDK's WebhookVerifier.
// Usage: node standard-webhooks.js '{"secret":"whsec_…"}'
// Starts an HTTP receiver on 127.0.0.1 (free port) and prints {"event":"listening","port":N}; every POST is
// verified with Webhook.verify and printed as {"event":"webhook","ok":bool,"error"?,"id","type","body"}.
// Commands on stdin, one JSON object per line:
//   {"cmd":"sign","id":"msg_…","timestamp":<unix seconds>,"body":"…"} -> {"event":"signed","signature":"v1,…"}
//   {"cmd":"close"}
'use strict';
const http = require('http');
const { Webhook } = require('standardwebhooks');

const cfg = JSON.parse(process.argv[2]);
const wh = new Webhook(cfg.secret);
const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = {
      'webhook-id': req.headers['webhook-id'],
      'webhook-timestamp': req.headers['webhook-timestamp'],
      'webhook-signature': req.headers['webhook-signature'],
    };
    try {
      const parsed = wh.verify(body, headers);
      print({ event: 'webhook', ok: true, id: headers['webhook-id'], type: parsed.type, body });
      res.writeHead(204).end();
    } catch (err) {
      print({ event: 'webhook', ok: false, error: String(err.message || err), id: headers['webhook-id'], body });
      res.writeHead(400).end();
    }
  });
});
server.listen(0, '127.0.0.1', () => print({ event: 'listening', port: server.address().port }));

require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const cmd = JSON.parse(line);
  if (cmd.cmd === 'sign') {
    print({ event: 'signed', signature: wh.sign(cmd.id, new Date(cmd.timestamp * 1000), cmd.body) });
  } else if (cmd.cmd === 'close') {
    server.close();
    process.exit(0);
  }
}).on('close', () => { server.close(); process.exit(0); });
