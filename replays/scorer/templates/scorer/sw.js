{% autoescape off %}// The scorer's service worker (docs/scorer.md): the page and its files are kept so /score/
// opens offline; every result page fetched online is kept too, and shown again offline.
// A result never fetched can't be computed offline: the page says so (js/scorer.js).
const CACHE = "scorer-{{ version }}";
const PAGE = "{{ page }}";
const FILES = [PAGE{% for f in files %}, "{{ f }}"{% endfor %}];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((key) => key.startsWith("scorer-") && key !== CACHE).map((key) => caches.delete(key))
  )).then(() => self.clients.claim()));
});

// The page names the other files it loaded (htmx, fonts): keep them too.
self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.keep) || [];
  const same = urls.filter((url) => new URL(url, self.location.href).origin === self.location.origin);
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(same.map((url) =>
    cache.match(url).then((hit) => hit || cache.add(url).catch(() => undefined))))));
});

// A kept answer says so: a header for htmx, and a page shows its offline note.
async function kept(hit, fragment) {
  const headers = new Headers(hit.headers);
  headers.set("X-Scorer-Kept", "1");
  const body = fragment ? await hit.text()
    : (await hit.text()).replace("data-offline-note hidden", "data-offline-note");
  return new Response(body, { status: hit.status, headers });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request, { ignoreVary: true }).then((hit) => hit || fetch(request)));
    return;
  }
  if (!url.pathname.startsWith(PAGE)) return;
  const fragment = request.headers.get("HX-Request") === "true";
  const key = fragment ? url.href + (url.search ? "&" : "?") + "fragment=1" : request;
  // Network first: a result is kept as it comes; offline, the kept one, else the page itself
  // (which says it is offline).
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.ok || response.status === 400) await cache.put(key, response.clone());
      return response;
    } catch (offline) {
      // Ignore Vary: the kept page answered this link, whatever the cookies since.
      const hit = (await cache.match(key, { ignoreVary: true })) ||
        (fragment ? null : await cache.match(PAGE, { ignoreVary: true }));
      return hit ? kept(hit, fragment) : Response.error();
    }
  })());
});
{% endautoescape %}
