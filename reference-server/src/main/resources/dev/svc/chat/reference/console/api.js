// The dev API client. The API key lives in this module's closure only: never in a URL, a cookie, storage
// or a log line; signing out or reloading the page forgets it.

export class DevApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function devClient(apiKey) {
  const key = () => apiKey;
  async function call(method, path, body) {
    const init = { method, headers: { 'x-api-key': apiKey }, cache: 'no-store', credentials: 'omit' };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const response = await fetch(path, init);
    const text = await response.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch (e) {
      json = null;
    }
    if (!response.ok) {
      const error = (json && json.error) || {};
      throw new DevApiError(response.status, error.code || 'error', error.message || response.statusText);
    }
    return json;
  }
  async function blob(path) {
    const response = await fetch(path, { headers: { 'x-api-key': apiKey }, credentials: 'omit' });
    if (!response.ok) {
      throw new DevApiError(response.status, 'error', response.statusText);
    }
    return response.blob();
  }
  const room = (id) => '/v1/dev/rooms/' + encodeURIComponent(id);
  const user = (id) => '/v1/dev/users/' + encodeURIComponent(id);
  return {
    state: () => call('GET', '/v1/dev/state'),
    tail: (roomId, limit = 50) => call('GET', room(roomId) + '/messages?limit=' + limit),
    sendAs: (roomId, userId, text) => call('POST', room(roomId) + '/messages', { userId, text }),
    editAs: (roomId, messageId, userId, text) =>
      call('PATCH', room(roomId) + '/messages/' + encodeURIComponent(messageId), { userId, text }),
    deleteAs: (roomId, messageId, userId) =>
      call('DELETE', room(roomId) + '/messages/' + encodeURIComponent(messageId), { userId }),
    createUser: (userId, username) => call('POST', '/v1/dev/users', { userId, username: username || null }),
    createRoom: (name, members) => call('POST', '/v1/dev/rooms', { name: name || null, members }),
    expireSessions: (userId) => call('POST', user(userId) + '/expire-sessions'),
    disconnect: (userId) => call('POST', user(userId) + '/disconnect'),
    mint: (userId) => call('POST', '/v1/dev/tokens', { userId }),
    addFault: (fault) => call('POST', '/v1/dev/faults', fault),
    clearFaults: () => call('DELETE', '/v1/dev/faults'),
    requests: (limit = 100) => call('GET', '/v1/dev/requests?limit=' + limit),
    webhooks: (limit = 100) => call('GET', '/v1/dev/webhooks?limit=' + limit),
    redeliver: (id) => call('POST', '/v1/dev/webhooks/' + encodeURIComponent(id) + '/redeliver'),
    dropFanOut: (userId, drop) => call('POST', user(userId) + '/drop-fanout', drop),
    exportSnapshot: () => call('GET', '/v1/dev/export'),
    importSnapshot: (text) => call('POST', '/v1/dev/import', text),
    thumbnail: (fileId, size) =>
      blob('/v1/dev/files/' + encodeURIComponent(fileId) + '/thumbnail?size=' + size),
    // For the dev channel's CONNECT only (live.js): the key goes in the socket's auth payload, never a URL.
    key,
  };
}
