// Imported by the generated service worker (vite.config.ts, workbox.importScripts). A hashed asset never changes under
// its name, and the precache stores it under that name: the browser serves it from the cache itself, without running
// the service worker's fetch handler for each of the ~45 chunks a screen loads (the Static Routing API, Chromium 123+;
// a miss goes to the network). Where addRoutes is absent or refuses the route, Workbox's handler serves them as before.
self.addEventListener('install', (event) => {
  if (typeof event.addRoutes !== 'function') return
  const assets = new URL('assets/*', self.registration.scope).pathname
  event.waitUntil(event.addRoutes({ condition: { urlPattern: { pathname: assets } }, source: 'cache' }).catch(() => {}))
})
