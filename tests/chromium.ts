// Flags for Debian's Chromium on a closed network (TESTING.md).
export const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
]
