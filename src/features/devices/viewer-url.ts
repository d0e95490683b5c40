// The service's own viewer page for the frame stream (api-notes "Devices"): built from the connect result, and only
// for an http(s) host so a connect answer can never point the frame at another scheme.
import type { ConnectReady } from '../../../worker/protocol/devices.ts'
import { isHttpProtocol } from '../../../worker/protocol/domain.ts'

export const VIEWER_PAGE = '/h5/screenIos/index.html'

export const buildViewerUrl = (r: ConnectReady): string | null => {
  const raw = /^[a-z][a-z0-9+.-]*:\/\//i.test(r.internetHttps) ? r.internetHttps : `https://${r.internetHttps}`
  let base: URL
  try {
    base = new URL(raw)
  } catch {
    return null
  }
  if (!isHttpProtocol(base.protocol)) return null
  const url = new URL(VIEWER_PAGE, base.origin)
  url.search = new URLSearchParams({
    token: r.cardToken,
    ip: r.localIp,
    rm: r.sn,
    domainName: base.host,
    userCardId: String(r.userCardId),
    cardToken: r.cardToken,
  }).toString()
  return url.toString()
}
