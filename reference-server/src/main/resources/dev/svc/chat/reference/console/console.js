// The console: signs in with a tenant's API key, loads the tenant's state from the dev API, then keeps its
// views up to date from the dev channel's events (live.js), drawn in batches. Nothing is polled: the state is
// loaded again when the channel (re)connects, after an action, and when an event names what the page lacks.
import { devClient, DevApiError } from './api.js';
import { liveChannel } from './live.js';
import { el, replaceRows, time, partsText } from './dom.js';

const TAIL_CAP = 200;      // messages the tail keeps (and draws); older ones leave the page
const REQUESTS_CAP = 100;
const WEBHOOKS_CAP = 100;
const $ = (id) => document.getElementById(id);

let api = null;          // the dev API client, holding the key; null when signed out
let live = null;         // the dev channel; null when signed out
let state = null;        // GET /v1/dev/state, kept up to date by events
let tail = null;         // the open room: {room, messages, receipts, call}
let requests = [];
let deliveries = new Map(); // webhook id -> delivery, oldest first
let openRoomId = null;
let loading = null;      // the reload under way, if any
let reloadAgain = false;
let editing = null;      // the message being edited: {id, senderId}, or null
const drawn = new Map(); // view -> JSON of what it shows, to redraw only on change

function say(message, isError = false) {
  const status = $('status');
  status.textContent = message;
  status.className = isError ? 'status-error' : '';
}

function describe(error) {
  return error instanceof DevApiError ? error.status + ' ' + error.code + ': ' + error.message : String(error);
}

/** Runs an action, reporting its outcome in the status line; reloads the state after it. */
async function act(label, action) {
  try {
    const result = await action();
    say(label + ': done.');
    await reload();
    return result;
  } catch (error) {
    say(label + ' failed: ' + describe(error), true);
    return null;
  }
}

/** Redraws a view only when its data changed, keeping the keyboard focus on the same control. */
function draw(view, data, render) {
  const json = JSON.stringify(data);
  if (drawn.get(view) === json) {
    return;
  }
  drawn.set(view, json);
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.focusKey : undefined;
  render(data);
  if (focused) {
    const again = document.querySelector('[data-focus-key="' + CSS.escape(focused) + '"]');
    if (again) {
      again.focus();
    }
  }
}

function button(text, key, handler, label) {
  return el('button', { type: 'button', text, 'data-focus-key': key, 'aria-label': label, on: { click: handler } });
}

function renderUsers(state) {
  $('tenant-id').textContent = '(tenant ' + state.tenant.id + ', ' + state.apiKeyConnections
    + ' API-key connections)';
  replaceRows($('users').tBodies[0], state.users.map((u) => {
    const connections = u.connections.length === 0 ? [el('span', { class: 'muted', text: 'offline' })]
      : u.connections.map((c) => el('span', { class: 'conn', text: c.transport + ' since ' + time(c.connectedSince)
        + ', in ' + c.framesIn + ' / out ' + c.framesOut + ', last pong ' + (time(c.lastPongAt) || 'none')
        + (c.joinedRoomId ? ', joined ' + c.joinedRoomId.slice(0, 8) : '') }));
    return el('tr', { 'data-user-id': u.userId },
      el('td', {}, el('strong', { text: u.userId }), u.username ? ' ' + u.username : ''),
      el('td', {}, ...connections),
      el('td', {},
        button('Mint token', 'mint:' + u.userId, () => mint(u.userId), 'Mint a token for ' + u.userId), ' ',
        button('Expire sessions', 'expire:' + u.userId, () => act('Expire sessions of ' + u.userId,
          () => api.expireSessions(u.userId)), 'Expire the sessions of ' + u.userId), ' ',
        button('Cut connections', 'cut:' + u.userId, () => act('Cut connections of ' + u.userId,
          () => api.disconnect(u.userId)), 'Cut the connections of ' + u.userId)));
  }));
}

function renderRooms(rooms) {
  replaceRows($('rooms').tBodies[0], rooms.map((r) => el('tr', {
    'data-room-id': r.id, class: r.id === openRoomId ? 'selected' : '' },
  el('td', {}, el('strong', { text: r.name || '(no name)' }), el('br'), el('span', { class: 'muted', text: r.id })),
  el('td', { text: r.members.join(', ') }),
  el('td', { text: r.seq }),
  el('td', { text: r.rev }),
  el('td', {}, button('Open', 'open:' + r.id, () => openRoom(r.id), 'Open room ' + (r.name || r.id))))));
}

function renderFaults(all) {
  $('faults').replaceChildren(...all.faults.map((f) => el('li', { text: (f.status ? f.status : 'no error')
    + (f.latencyMs ? ' after ' + f.latencyMs + ' ms' : '') + ' on ' + f.routePrefix
    + (f.remaining >= 0 ? ' for the next ' + f.remaining + ' requests' : '')
    + (f.until ? ' until ' + time(f.until) : '')
    + (f.retryAfterSeconds ? ', Retry-After ' + f.retryAfterSeconds + ' s' : '') })),
  ...all.drops.map((d) => el('li', { text: 'fan-out to ' + d.userId + ' dropped'
    + (d.remaining >= 0 ? ' for the next ' + d.remaining + ' events' : '')
    + (d.until ? ' until ' + time(d.until) : '') })));
}

function renderCalls(rooms) {
  const calls = rooms.filter((r) => r.call);
  $('calls').replaceChildren(...(calls.length === 0 ? [el('li', { class: 'muted', text: 'none' })]
    : calls.map((r) => el('li', { 'data-call-id': r.call.id, text: (r.name || r.id) + ': ' + r.call.kind + ' call '
      + r.call.status + ' by ' + r.call.initiatorId + ' since ' + time(r.call.createdAt) + ', in it: '
      + r.call.participantIds.join(', ') }))));
}

function renderReceipts(receipts) {
  $('receipts').replaceChildren(...(receipts.length === 0 ? [el('li', { class: 'muted', text: 'none' })]
    : receipts.map((r) => el('li', { 'data-user-id': r.userId, text: r.userId + ' read up to #' + r.seq + ' at '
      + time(r.readAt) }))));
}

function renderWebhooks(list) {
  replaceRows($('webhooks').tBodies[0], list.slice().reverse().map((w) => el('tr', { 'data-webhook-id': w.id },
    el('td', { text: time(w.createdAt) }), el('td', { text: w.type }),
    el('td', { class: 'webhook-status', text: w.status + (w.redeliveries ? ' (redelivered ' + w.redeliveries + '×)'
      : '') }),
    el('td', { text: w.attempts }), el('td', { text: w.lastFailure || '' }),
    el('td', { text: w.nextAttemptAt && w.status === 'retrying' ? time(w.nextAttemptAt) : '' }),
    el('td', {}, w.status === 'delivered' || w.status === 'failed'
      ? button('Redeliver', 'redeliver:' + w.id, () => act('Redeliver ' + w.type, () => api.redeliver(w.id)),
        'Redeliver the ' + w.type + ' webhook ' + w.id) : ''))));
}

function renderTail(tail) {
  $('tail-room').textContent = tail.room.name ? '#' + tail.room.name : tail.room.id;
  const list = $('tail');
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren(...tail.messages.map((m) => el('li', { class: 'message', 'data-seq': m.seq,
    'data-message-id': m.id },
    el('span', { class: 'meta', text: '#' + m.seq + ' ' + time(m.createdAt) + ' ' + m.senderId
      + (m.editedAt ? ' (edited)' : '') }),
    m.deletedAt ? el('span', { class: 'deleted text', text: 'deleted' }) : el('span', { class: 'text',
      text: partsText(m.parts) }),
    Object.keys(m.reactions || {}).length ? el('span', { class: 'meta', text: ' ' + Object.entries(m.reactions)
      .map(([emoji, users]) => emoji + ' ' + users.length).join(' ') }) : '',
    m.deletedAt ? '' : el('span', { class: 'message-actions' }, ' ',
      button('Edit', 'edit:' + m.id, () => startEdit(m), 'Edit message ' + m.seq + ' as ' + m.senderId), ' ',
      button('Delete', 'delete:' + m.id, () => act('Delete message ' + m.seq + ' as ' + m.senderId,
        () => api.deleteAs(openRoomId, m.id, m.senderId)), 'Delete message ' + m.seq + ' as ' + m.senderId)))));
  if (atBottom) {
    list.scrollTop = list.scrollHeight;
  }
  const select = $('send-as');
  const chosen = select.value;
  draw('send-as', tail.room.members, (members) => {
    select.replaceChildren(...members.map((id) => el('option', { value: id, text: id })));
    if (members.includes(chosen)) {
      select.value = chosen;
    }
  });
}

function renderRequests(requests) {
  replaceRows($('requests').tBodies[0], requests.slice().reverse().map((r) => el('tr', {},
    el('td', { text: time(r.at) }), el('td', { text: r.method }), el('td', { text: r.route }),
    el('td', { text: r.status + (r.fault ? ' (fault)' : '') }), el('td', { text: r.durationMs }),
    el('td', { text: r.userId || 'API key' }))));
}

function drawState() {
  draw('users', state, renderUsers);
  draw('rooms', state.rooms, renderRooms);
  draw('calls', state.rooms, renderCalls);
  draw('faults', { faults: state.faults, drops: state.fanOutDrops || [] }, renderFaults);
  const users = state.users.map((u) => u.userId);
  const select = $('drop-user');
  const chosen = select.value;
  draw('drop-user', users, (ids) => {
    select.replaceChildren(...ids.map((id) => el('option', { value: id, text: id })));
    if (ids.includes(chosen)) {
      select.value = chosen;
    }
  });
}

function drawTail() {
  draw('tail', { room: tail.room, messages: tail.messages }, renderTail);
  draw('receipts', tail.receipts, renderReceipts);
}

/** Loads the state (and the open room's tail) again; calls made meanwhile are folded into one more. */
async function reload() {
  if (loading) {
    reloadAgain = true;
    return loading;
  }
  loading = (async () => {
    try {
      do {
        reloadAgain = false;
        if (!api) {
          return;
        }
        state = await api.state();
        drawState();
        if (openRoomId) {
          const t = await api.tail(openRoomId);
          tail = { room: t.room, messages: t.messages, receipts: t.receipts, call: t.call };
          drawTail();
        }
      } while (reloadAgain);
    } catch (error) {
      if (error instanceof DevApiError && error.status === 401) {
        signOut('The key was refused: signed out.');
        return;
      }
      say('Cannot reach the dev API: ' + describe(error), true);
    } finally {
      loading = null;
    }
  })();
  return loading;
}

/** Everything the views show, loaded anew: on sign-in and whenever the channel (re)connects. */
async function reloadAll() {
  await reload();
  if (!api) {
    return;
  }
  requests = (await api.requests(REQUESTS_CAP)).requests;
  draw('requests', requests, renderRequests);
  deliveries = new Map((await api.webhooks(WEBHOOKS_CAP)).deliveries.map((w) => [w.id, w]));
  draw('webhooks', [...deliveries.values()], renderWebhooks);
}

/** Applies a room event to the open room's tail: messages by id (the latest TAIL_CAP), receipts by user. */
function applyToTail(event) {
  const data = event.data;
  if (event.event === 'new-message' || event.event === 'message-updated') {
    if (data.threadId) {
      return; // a reply shows in its thread, not in the room's tail
    }
    const at = tail.messages.findIndex((m) => m.id === data.id);
    if (at >= 0) {
      tail.messages[at] = data;
    } else if (event.event === 'new-message') {
      tail.messages.push(data);
      tail.messages.sort((a, b) => a.seq - b.seq);
      if (tail.messages.length > TAIL_CAP) {
        tail.messages.splice(0, tail.messages.length - TAIL_CAP);
      }
    }
  } else if (event.event === 'room-read') {
    tail.receipts = tail.receipts.filter((r) => r.userId !== data.userId).concat([data]);
  }
}

/** Applies a batch of the dev channel's events, then draws each view that changed once. */
function onBatch(batch) {
  if (!api || !state) {
    return;
  }
  let stale = false;
  for (const { name, payload } of batch) {
    if (name === 'room-event') {
      const room = state.rooms.find((r) => r.id === payload.roomId);
      if (!room || payload.event.startsWith('call-')) {
        stale = true; // a room made elsewhere, or a call: the state says what it is now
      }
      if (room) {
        room.seq = Math.max(room.seq, payload.seq);
        room.rev = Math.max(room.rev, payload.rev);
      }
      if (tail && payload.roomId === openRoomId) {
        applyToTail(payload);
      }
    } else if (name === 'connections') {
      const byUser = new Map();
      for (const c of payload.connections) {
        if (c.userId !== null && !state.users.some((u) => u.userId === c.userId)) {
          stale = true;
        }
        byUser.set(c.userId, (byUser.get(c.userId) || []).concat([c]));
      }
      state.users.forEach((u) => { u.connections = byUser.get(u.userId) || []; });
      state.apiKeyConnections = (byUser.get(null) || []).length;
    } else if (name === 'fan-out-drops') {
      state.fanOutDrops = payload.fanOutDrops;
    } else if (name === 'request') {
      requests.push(payload);
      if (requests.length > REQUESTS_CAP) {
        requests.splice(0, requests.length - REQUESTS_CAP);
      }
    } else if (name === 'webhook') {
      deliveries.delete(payload.id);
      deliveries.set(payload.id, payload);
      while (deliveries.size > WEBHOOKS_CAP) {
        deliveries.delete(deliveries.keys().next().value);
      }
    }
  }
  drawState();
  if (tail) {
    drawTail();
  }
  draw('requests', requests, renderRequests);
  draw('webhooks', [...deliveries.values()], renderWebhooks);
  if (stale) {
    reload();
  }
}

function onLive(connected, error) {
  const line = $('live-status');
  if (connected) {
    line.textContent = 'Live.';
    line.className = 'muted live';
    reloadAll(); // what happened while the channel was down
  } else {
    line.textContent = error ? 'Not live (' + error.message + '); reconnecting.' : 'Not live; reconnecting.';
    line.className = 'muted status-error';
  }
}

async function openRoom(roomId) {
  openRoomId = roomId;
  endEdit();
  tail = null;
  drawn.delete('rooms');
  drawn.delete('tail');
  await reload();
  $('send-text').focus();
}

function startEdit(message) {
  editing = { id: message.id, senderId: message.senderId };
  $('send-as').value = message.senderId;
  $('send-as').disabled = true;
  $('send-text').value = partsText(message.parts);
  $('send-button').textContent = 'Save edit';
  $('cancel-edit').hidden = false;
  $('send-text').focus();
}

function endEdit() {
  editing = null;
  $('send-as').disabled = false;
  $('send-text').value = '';
  $('send-button').textContent = 'Send';
  $('cancel-edit').hidden = true;
}

async function mint(userId) {
  const minted = await act('Mint a token for ' + userId, () => api.mint(userId));
  if (minted) {
    $('minted-user').textContent = userId;
    $('minted-token').value = minted.token;
    $('token-output').hidden = false;
    $('minted-token').focus();
    $('minted-token').select();
  }
}

async function signIn(key) {
  const candidate = devClient(key);
  try {
    await candidate.state();
  } catch (error) {
    say('Sign-in failed: ' + describe(error), true);
    return;
  }
  api = candidate;
  $('sign-in-section').hidden = true;
  $('workbench').hidden = false;
  say('Signed in.');
  live = liveChannel(candidate.key(), onBatch, onLive);
  await reloadAll(); // the views at once, live or not yet
}

function signOut(message) {
  api = null;
  if (live) {
    live.close();
    live = null;
  }
  state = null;
  tail = null;
  requests = [];
  deliveries = new Map();
  openRoomId = null;
  $('live-status').textContent = 'Not live.';
  $('live-status').className = 'muted';
  endEdit();
  drawn.clear();
  $('minted-token').value = '';
  $('token-output').hidden = true;
  $('workbench').hidden = true;
  $('sign-in-section').hidden = false;
  say(message || 'Signed out.');
  $('api-key').focus();
}

function numberOrNull(id) {
  const value = $(id).value.trim();
  return value === '' ? null : Number(value);
}

function wire() {
  $('sign-in-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('api-key');
    const key = input.value.trim();
    input.value = ''; // the field keeps nothing once the client holds the key
    signIn(key);
  });
  $('sign-out').addEventListener('click', () => signOut());
  $('copy-token').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText($('minted-token').value);
      say('Token copied.');
    } catch (e) {
      $('minted-token').select();
      say('Press Ctrl+C to copy the selected token.');
    }
  });
  $('send-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!openRoomId) {
      say('Open a room first.', true);
      return;
    }
    const text = $('send-text').value;
    if (editing) {
      const { id, senderId } = editing;
      act('Edit as ' + senderId, () => api.editAs(openRoomId, id, senderId, text)).then((done) => {
        if (done) {
          endEdit();
        }
      });
      return;
    }
    act('Send as ' + $('send-as').value, () => api.sendAs(openRoomId, $('send-as').value, text))
      .then((sent) => {
        if (sent) {
          $('send-text').value = '';
        }
      });
  });
  $('cancel-edit').addEventListener('click', endEdit);
  $('user-form').addEventListener('submit', (event) => {
    event.preventDefault();
    act('Create user', () => api.createUser($('new-user-id').value.trim(), $('new-user-name').value.trim()));
  });
  $('room-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const members = $('new-room-members').value.split(',').map((s) => s.trim()).filter((s) => s);
    act('Create room', () => api.createRoom($('new-room-name').value.trim(), members));
  });
  $('fault-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const fault = { routePrefix: $('fault-prefix').value.trim() || '/v1/' };
    if ($('fault-status').value !== '0') {
      fault.status = Number($('fault-status').value);
    }
    const latency = numberOrNull('fault-latency');
    if (latency !== null) {
      fault.latencyMs = latency;
    }
    const seconds = numberOrNull('fault-seconds');
    const count = numberOrNull('fault-count');
    const retry = numberOrNull('fault-retry');
    if (seconds !== null) {
      fault.durationSeconds = seconds;
    } else if (count !== null) {
      fault.count = count;
    }
    if (retry !== null) {
      fault.retryAfterSeconds = retry;
    }
    act('Inject fault', () => api.addFault(fault));
  });
  $('clear-faults').addEventListener('click', () => act('Clear faults', () => api.clearFaults()));
  $('drop-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const userId = $('drop-user').value;
    const seconds = numberOrNull('drop-seconds');
    const count = numberOrNull('drop-count');
    const drop = seconds !== null ? { durationSeconds: seconds } : { count: count !== null ? count : 1 };
    act('Drop fan-out to ' + userId, () => api.dropFanOut(userId, drop));
  });
  $('export').addEventListener('click', async () => {
    const snapshot = await act('Export', () => api.exportSnapshot());
    if (snapshot) {
      const blob = new Blob([JSON.stringify(snapshot, null, 2)], { type: 'application/json' });
      const link = el('a', { href: URL.createObjectURL(blob), download: 'svc-chat-snapshot.json' });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    }
  });
  $('import').addEventListener('click', async () => {
    const file = $('import-file').files[0];
    if (!file) {
      say('Choose a snapshot file first.', true);
      return;
    }
    const text = await file.text();
    const counts = await act('Import', () => api.importSnapshot(text));
    if (counts) {
      say('Imported ' + counts.users + ' users, ' + counts.rooms + ' rooms, ' + counts.messages + ' messages.');
    }
  });
}

wire();
