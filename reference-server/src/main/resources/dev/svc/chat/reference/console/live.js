// The dev channel (docs/console.md): the official socket.io client's ESM build, served from the jar, on the
// namespace /dev, authenticated by the API key in the CONNECT payload. Events are handed over in batches: the
// page draws at most once per BATCH_MS however fast they come.
import { io } from './socket-io.js';

const BATCH_MS = 50;
const EVENTS = ['room-event', 'connections', 'request', 'webhook', 'fan-out-drops'];

/**
 * Connects to the tenant's dev channel. `onBatch(events)` gets [{name, payload}] in arrival order;
 * `onStatus(connected, error)` each change of the connection. Returns {close()}.
 */
export function liveChannel(apiKey, onBatch, onStatus) {
  let pending = [];
  let timer = null;
  const socket = io(window.location.origin + '/dev', {
    path: '/v1/dev/socket.io/',
    transports: ['websocket'],
    auth: { apiKey },
    reconnectionDelayMax: 5000,
  });
  function flush() {
    timer = null;
    const batch = pending;
    pending = [];
    onBatch(batch);
  }
  for (const name of EVENTS) {
    socket.on(name, (payload) => {
      pending.push({ name, payload });
      if (timer === null) {
        timer = setTimeout(flush, BATCH_MS);
      }
    });
  }
  socket.on('connect', () => onStatus(true, null));
  socket.on('disconnect', () => onStatus(false, null));
  socket.on('connect_error', (error) => onStatus(false, error));
  return {
    close() {
      socket.off();
      socket.disconnect();
      clearTimeout(timer);
      pending = [];
    },
  };
}
