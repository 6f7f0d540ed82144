// The console's views: each draws one part of the page from the data it is given, every text through
// textContent (dom.js). `ui` gives what the controls do: {api(), act, mint, openRoom, startEdit, draw,
// openRoomId()}.
import { el, replaceRows, time, partsText, bytes } from './dom.js';

const $ = (id) => document.getElementById(id);

function button(text, key, handler, label) {
  return el('button', { type: 'button', text, 'data-focus-key': key, 'aria-label': label, on: { click: handler } });
}

// What each user's row shows (JSON of the user), by row: a row is made anew only when its user changed.
const userRowKeys = new WeakMap();

/**
 * Draws the users table: a user's row is made anew only when what it shows changed, the others are kept (a
 * tenant with a thousand connections changes a few rows at a time: their frame counts and pongs).
 */
export function renderUsers(state, ui) {
  const line = '(tenant ' + state.tenant.id + ', ' + state.apiKeyConnections + ' API-key connections)';
  if ($('tenant-id').textContent !== line) {
    $('tenant-id').textContent = line;
  }
  const body = $('users').tBodies[0];
  const old = new Map([...body.rows].map((tr) => [tr.dataset.userId, tr]));
  const rows = state.users.map((u) => {
    const key = JSON.stringify(u);
    const kept = old.get(u.userId);
    if (kept && userRowKeys.get(kept) === key) {
      return kept;
    }
    const row = userRow(u, ui);
    userRowKeys.set(row, key);
    if (kept) {
      kept.replaceWith(row); // in place: the rows around it are not moved
    }
    return row;
  });
  const inOrder = rows.length === body.rows.length && rows.every((row, i) => body.rows[i] === row);
  if (!inOrder) {
    replaceRows(body, rows);
  }
}

function userRow(u, ui) {
  const connections = u.connections.length === 0 ? [el('span', { class: 'muted', text: 'offline' })]
    : u.connections.map((c) => el('span', { class: 'conn', text: c.transport + ' since ' + time(c.connectedSince)
      + ', in ' + c.framesIn + ' / out ' + c.framesOut + ', last pong ' + (time(c.lastPongAt) || 'none')
      + (c.joinedRoomId ? ', joined ' + c.joinedRoomId.slice(0, 8) : '') }));
  return el('tr', { 'data-user-id': u.userId },
    el('td', {}, el('strong', { text: u.userId }), u.username ? ' ' + u.username : ''),
    el('td', {}, ...connections),
    el('td', {},
      button('Mint token', 'mint:' + u.userId, () => ui.mint(u.userId), 'Mint a token for ' + u.userId), ' ',
      button('Expire sessions', 'expire:' + u.userId, () => ui.act('Expire sessions of ' + u.userId,
        () => ui.api().expireSessions(u.userId)), 'Expire the sessions of ' + u.userId), ' ',
      button('Cut connections', 'cut:' + u.userId, () => ui.act('Cut connections of ' + u.userId,
        () => ui.api().disconnect(u.userId)), 'Cut the connections of ' + u.userId)));
}

export function renderRooms(rooms, ui) {
  replaceRows($('rooms').tBodies[0], rooms.map((r) => el('tr', {
    'data-room-id': r.id, class: r.id === ui.openRoomId() ? 'selected' : '' },
  el('td', {}, el('strong', { text: r.name || '(no name)' }), el('br'), el('span', { class: 'muted', text: r.id })),
  el('td', { text: r.members.join(', ') }),
  el('td', { text: r.seq }),
  el('td', { text: r.rev }),
  el('td', {}, button('Open', 'open:' + r.id, () => ui.openRoom(r.id), 'Open room ' + (r.name || r.id))))));
}

export function renderFaults(all, ui) {
  $('faults').replaceChildren(...all.faults.map((f) => el('li', { text: (f.status ? f.status : 'no error')
    + (f.latencyMs ? ' after ' + f.latencyMs + ' ms' : '') + ' on ' + f.routePrefix
    + (f.remaining >= 0 ? ' for the next ' + f.remaining + ' requests' : '')
    + (f.until ? ' until ' + time(f.until) : '')
    + (f.retryAfterSeconds ? ', Retry-After ' + f.retryAfterSeconds + ' s' : '') })),
  ...all.drops.map((d) => el('li', { text: 'fan-out to ' + d.userId + ' dropped'
    + (d.remaining >= 0 ? ' for the next ' + d.remaining + ' events' : '')
    + (d.until ? ' until ' + time(d.until) : '') })));
}

export function renderCalls(rooms, ui) {
  const calls = rooms.filter((r) => r.call);
  $('calls').replaceChildren(...(calls.length === 0 ? [el('li', { class: 'muted', text: 'none' })]
    : calls.map((r) => el('li', { 'data-call-id': r.call.id, text: (r.name || r.id) + ': ' + r.call.kind + ' call '
      + r.call.status + ' by ' + r.call.initiatorId + ' since ' + time(r.call.createdAt) + ', in it: '
      + r.call.participantIds.join(', ') }))));
}

export function renderReceipts(receipts, ui) {
  $('receipts').replaceChildren(...(receipts.length === 0 ? [el('li', { class: 'muted', text: 'none' })]
    : receipts.map((r) => el('li', { 'data-user-id': r.userId, text: r.userId + ' read up to #' + r.seq + ' at '
      + time(r.readAt) }))));
}

export function renderWebhooks(list, ui) {
  replaceRows($('webhooks').tBodies[0], list.slice().reverse().map((w) => el('tr', { 'data-webhook-id': w.id },
    el('td', { text: time(w.createdAt) }), el('td', { text: w.type }),
    el('td', { class: 'webhook-status', text: w.status + (w.redeliveries ? ' (redelivered ' + w.redeliveries + '×)'
      : '') }),
    el('td', { text: w.attempts }), el('td', { text: w.lastFailure || '' }),
    el('td', { text: w.nextAttemptAt && w.status === 'retrying' ? time(w.nextAttemptAt) : '' }),
    el('td', {}, w.status === 'delivered' || w.status === 'failed'
      ? button('Redeliver', 'redeliver:' + w.id, () => ui.act('Redeliver ' + w.type, () => ui.api().redeliver(w.id)),
        'Redeliver the ' + w.type + ' webhook ' + w.id) : ''))));
}

function messageRow(m, ui) {
  return el('li', { class: 'message', 'data-seq': m.seq, 'data-message-id': m.id },
    el('span', { class: 'meta', text: '#' + m.seq + ' ' + time(m.createdAt) + ' ' + m.senderId
      + (m.editedAt ? ' (edited)' : '') }),
    m.deletedAt ? el('span', { class: 'deleted text', text: 'deleted' }) : el('span', { class: 'text',
      text: partsText(m.parts) }),
    m.deletedAt ? '' : fileParts(m, ui),
    Object.keys(m.reactions || {}).length ? el('span', { class: 'meta', text: ' ' + Object.entries(m.reactions)
      .map(([emoji, users]) => emoji + ' ' + users.length).join(' ') }) : '',
    m.deletedAt ? '' : el('span', { class: 'message-actions' }, ' ',
      button('Edit', 'edit:' + m.id, () => ui.startEdit(m), 'Edit message ' + m.seq + ' as ' + m.senderId), ' ',
      button('Delete', 'delete:' + m.id, () => ui.act('Delete message ' + m.seq + ' as ' + m.senderId,
        () => ui.api().deleteAs(ui.openRoomId(), m.id, m.senderId)),
      'Delete message ' + m.seq + ' as ' + m.senderId)));
}

/** The message's files: an image as its thumbnail (fetched with the key, see thumbs.js), others by name. */
function fileParts(m, ui) {
  const files = (m.parts || []).filter((p) => p.type === 'file');
  if (!files.length) {
    return '';
  }
  return el('span', { class: 'files' }, ...files.map((f) => {
    const label = f.name + ' (' + (f.width ? f.width + '×' + f.height + ', ' : '') + bytes(f.size) + ')';
    const name = el('span', { class: 'file', text: label });
    if (!f.width) {
      return name;
    }
    const img = el('img', { class: 'thumb', alt: f.name, title: label, 'data-file-id': f.fileId });
    ui.thumbnail(f.fileId).then((url) => { img.src = url; }, () => img.replaceWith(name));
    return img;
  }));
}

// The tail follows its newest row while it is scrolled to the bottom (as it is at first); scrolled up, it stays
// where it is. The position is read in scroll events and written in an animation frame, never between a
// batch's DOM changes: a layout forced there lays the whole page out once more for every batch.
let followTail = true;
let pinnedTop = -1;   // scrollTop the last pin left, to tell a scroll of the user's from the pin's
let pinQueued = false;

/** Starts tracking whether the tail is scrolled to its bottom (once, at start). */
export function watchTailScroll() {
  const list = $('tail');
  list.addEventListener('scroll', () => {
    if (pinnedTop >= 0 && list.scrollTop < pinnedTop - 4) {
      followTail = false; // scrolled up since the pin
    } else {
      followTail = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    }
    pinnedTop = -1;
  }, { passive: true });
}

/** Scrolls the tail to its newest row in the next animation frame, if it follows it. */
function pinTail() {
  if (!followTail || pinQueued) {
    return;
  }
  pinQueued = true;
  requestAnimationFrame(() => {
    pinQueued = false;
    if (followTail) {
      const list = $('tail');
      list.scrollTop = list.scrollHeight;
      pinnedTop = list.scrollTop;
    }
  });
}

/**
 * Updates the tail in place from a batch of events: the rows of the messages in `changed` (ids) are made
 * anew (a new one at the end), rows of messages the tail no longer keeps leave; no other row is touched, and
 * nothing is measured (pinTail).
 */
export function patchTail(tail, changed, ui) {
  const list = $('tail');
  const rows = new Map([...list.children].map((li) => [li.dataset.messageId, li]));
  const kept = new Set();
  for (const m of tail.messages) {
    kept.add(m.id);
    if (changed.has(m.id)) {
      const row = messageRow(m, ui);
      const old = rows.get(m.id);
      if (old) {
        old.replaceWith(row);
      } else {
        list.append(row);
      }
    }
  }
  for (const [id, li] of rows) {
    if (!kept.has(id)) {
      li.remove();
    }
  }
  pinTail();
}

export function renderTail(tail, ui) {
  const title = tail.room.name ? '#' + tail.room.name : tail.room.id;
  if ($('tail-room').textContent !== title) {
    $('tail-room').textContent = title;
    followTail = true; // another room: from its newest message
  }
  $('tail').replaceChildren(...tail.messages.map((m) => messageRow(m, ui)));
  pinTail();
  const select = $('send-as');
  const chosen = select.value;
  ui.draw('send-as', tail.room.members, (members) => {
    select.replaceChildren(...members.map((id) => el('option', { value: id, text: id })));
    if (members.includes(chosen)) {
      select.value = chosen;
    }
  });
}

function requestRow(r) {
  return el('tr', {}, el('td', { text: time(r.at) }), el('td', { text: r.method }), el('td', { text: r.route }),
    el('td', { text: r.status + (r.fault ? ' (fault)' : '') }), el('td', { text: r.durationMs }),
    el('td', { text: r.userId || 'API key' }));
}

export function renderRequests(requests) {
  replaceRows($('requests').tBodies[0], requests.slice().reverse().map(requestRow));
}

/** Puts the newest requests on top (newest first) and keeps `cap` rows. */
export function prependRequests(added, cap) {
  const body = $('requests').tBodies[0];
  body.prepend(...added.slice(-cap).reverse().map(requestRow));
  while (body.rows.length > cap) {
    body.lastElementChild.remove();
  }
}

/** Shows a room's new seq and rev in its row. */
export function patchRoomPosition(room) {
  const row = document.querySelector('#rooms tr[data-room-id="' + CSS.escape(room.id) + '"]');
  if (row) {
    row.cells[2].textContent = room.seq;
    row.cells[3].textContent = room.rev;
  }
}

