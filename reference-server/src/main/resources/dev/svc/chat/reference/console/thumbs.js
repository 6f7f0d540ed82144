// Thumbnails of the tail's images. An <img> cannot send the API key, and the key never goes in a URL: each
// thumbnail is fetched with the key in a header and shown from a blob: URL. At most CAP are kept; the oldest
// is revoked when a new one comes, and every one on sign-out.

const CAP = 200;
const SIZE = 128;

export function thumbnailCache(fetchBlob) {
  const urls = new Map(); // fileId -> Promise of a blob: URL, oldest first
  function revoke(promise) {
    promise.then((url) => URL.revokeObjectURL(url), () => {});
  }
  return {
    /** Returns a promise of the file's thumbnail as a blob: URL; a refused fetch is not kept. */
    url(fileId) {
      let promise = urls.get(fileId);
      if (promise) {
        urls.delete(fileId); // to the newest end
        urls.set(fileId, promise);
        return promise;
      }
      promise = fetchBlob(fileId, SIZE).then((blob) => URL.createObjectURL(blob));
      promise.catch(() => urls.delete(fileId));
      urls.set(fileId, promise);
      while (urls.size > CAP) {
        const [oldest, old] = urls.entries().next().value;
        urls.delete(oldest);
        revoke(old);
      }
      return promise;
    },
    clear() {
      for (const promise of urls.values()) {
        revoke(promise);
      }
      urls.clear();
    },
  };
}
