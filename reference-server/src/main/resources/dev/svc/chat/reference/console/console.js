// The console: signs in with a tenant's API key, loads the tenant's state from the dev API, then keeps its
// views up to date from the dev channel's events (live.js), drawn in batches. Nothing is polled: the state is
// loaded again when the channel (re)connects, after an action, and when an event names what the page lacks.
import { devClient, DevApiError } from './api.js';
import { liveChannel } from './live.js';
import { el, partsText } from './dom.js';
import * as views from './views.js';
import { thumbnailCache } from './thumbs.js';

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
const thumbs = thumbnailCache((fileId, size) => api.thumbnail(fileId, size));
// What the views' controls do (views.js); functions, so that the views always see the current values.
const ui = {
  api: () => api,
  act: (label, action) => act(label, action),
  mint: (userId) => mint(userId),
  openRoom: (roomId) => openRoom(roomId),
  startEdit: (message) => startEdit(message),
  draw: (view, data, render) => draw(view, data, render),
  openRoomId: () => openRoomId,
  thumbnail: (fileId) => thumbs.url(fileId),
};

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
  keepingFocus(() => render(data));
}

/** Runs `render`, then puts the keyboard focus back on the control with the same focus key, if it was replaced. */
function keepingFocus(render) {
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.focusKey : undefined;
  render();
  if (focused) {
    const again = document.querySelector('[data-focus-key="' + CSS.escape(focused) + '"]');
    if (again) {
      again.focus();
    }
  }
}

function drawState() {
  draw('users', state, (d) => views.renderUsers(d, ui));
  draw('rooms', state.rooms, (d) => views.renderRooms(d, ui));
  draw('calls', state.rooms, (d) => views.renderCalls(d, ui));
  draw('faults', { faults: state.faults, drops: state.fanOutDrops || [] }, (d) => views.renderFaults(d, ui));
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
  draw('tail', { room: tail.room, messages: tail.messages }, (d) => views.renderTail(d, ui));
  draw('receipts', tail.receipts, (d) => views.renderReceipts(d, ui));
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
  draw('requests', requests, (d) => views.renderRequests(d, ui));
  deliveries = new Map((await api.webhooks(WEBHOOKS_CAP)).deliveries.map((w) => [w.id, w]));
  draw('webhooks', [...deliveries.values()], (d) => views.renderWebhooks(d, ui));
}

/**
 * Applies a room event to the open room's tail: messages by id (the latest TAIL_CAP), receipts by user. Returns
 * the id of the message it changed, or null.
 */
function applyToTail(event) {
  const data = event.data;
  if (event.event === 'new-message' || event.event === 'message-updated') {
    if (data.threadId) {
      return null; // a reply shows in its thread, not in the room's tail
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
    } else {
      return null;
    }
    return data.id;
  }
  if (event.event === 'room-read') {
    tail.receipts = tail.receipts.filter((r) => r.userId !== data.userId).concat([data]);
  }
  return null;
}

/**
 * Applies a batch of the dev channel's events, then updates each view it touched once: the tail and the
 * request log in place (only their new and changed rows), the others drawn again.
 */
function onBatch(batch) {
  if (!api || !state) {
    return;
  }
  let stale = false;
  let users = false;
  let faults = false;
  let receipts = false;
  let webhooks = false;
  const rooms = new Set();
  const changed = new Set();
  const added = [];
  for (const { name, payload } of batch) {
    if (name === 'room-event') {
      const room = state.rooms.find((r) => r.id === payload.roomId);
      if (!room || payload.event.startsWith('call-')) {
        stale = true; // a room made elsewhere, or a call: the state says what it is now
      }
      if (room) {
        room.seq = Math.max(room.seq, payload.seq);
        room.rev = Math.max(room.rev, payload.rev);
        rooms.add(room);
      }
      if (tail && payload.roomId === openRoomId) {
        const id = applyToTail(payload);
        if (id !== null) {
          changed.add(id);
        }
        receipts = receipts || payload.event === 'room-read';
      }
    } else if (name === 'connections') {
      const known = new Set(state.users.map((u) => u.userId));
      const byUser = new Map();
      for (const c of payload.connections) {
        if (c.userId !== null && !known.has(c.userId)) {
          stale = true;
        }
        const own = byUser.get(c.userId);
        if (own) {
          own.push(c);
        } else {
          byUser.set(c.userId, [c]);
        }
      }
      state.users.forEach((u) => { u.connections = byUser.get(u.userId) || []; });
      state.apiKeyConnections = (byUser.get(null) || []).length;
      users = true;
    } else if (name === 'fan-out-drops') {
      state.fanOutDrops = payload.fanOutDrops;
      faults = true;
    } else if (name === 'request') {
      requests.push(payload);
      added.push(payload);
      if (requests.length > REQUESTS_CAP) {
        requests.splice(0, requests.length - REQUESTS_CAP);
      }
    } else if (name === 'webhook') {
      deliveries.delete(payload.id);
      deliveries.set(payload.id, payload);
      while (deliveries.size > WEBHOOKS_CAP) {
        deliveries.delete(deliveries.keys().next().value);
      }
      webhooks = true;
    }
  }
  if (users) {
    // rows compared one by one (views.renderUsers): the whole state as JSON is too much at every change
    keepingFocus(() => views.renderUsers(state, ui));
    drawn.delete('users');
  }
  if (faults) {
    draw('faults', { faults: state.faults, drops: state.fanOutDrops || [] }, (d) => views.renderFaults(d, ui));
  }
  if (rooms.size) {
    rooms.forEach(views.patchRoomPosition);
    drawn.delete('rooms'); // the next full draw compares with what the rows show now
  }
  if (changed.size) {
    views.patchTail(tail, changed, ui);
    drawn.delete('tail');
  }
  if (receipts) {
    draw('receipts', tail.receipts, (d) => views.renderReceipts(d, ui));
  }
  if (added.length) {
    views.prependRequests(added, REQUESTS_CAP);
    drawn.delete('requests');
  }
  if (webhooks) {
    draw('webhooks', [...deliveries.values()], (d) => views.renderWebhooks(d, ui));
  }
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
  thumbs.clear();
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
views.watchTailScroll();
