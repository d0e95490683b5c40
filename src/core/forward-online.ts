// The browser's `online` event reaches pages only: Chromium fires it in no worker scope (crbug.com/114475;
// decisions.md), so each tab tells the core, whose push socket starts a fresh reconnect cycle if its last was spent.
import type { CoreApi } from '../../worker/protocol/commands.ts'

export const forwardOnline = (api: Pick<CoreApi, 'reportOnline'>): (() => void) => {
  const onOnline = () => void api.reportOnline()
  window.addEventListener('online', onOnline)
  return () => window.removeEventListener('online', onOnline)
}
