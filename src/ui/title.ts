// The title rule (§1, decisions.md): `{systemName}云手机`, set by retrying every 50 ms, up to 5 times, until the
// system name exists.
import { TITLE_RETRY_INTERVAL_MS, TITLE_RETRY_MAX } from '../../worker/protocol/constants.ts'
import { zhCN } from '../i18n/zh-CN.ts'

export const titleFor = (systemName: string | null | undefined): string | null =>
  systemName ? zhCN.app.title(systemName) : null

export interface TitleRetryDeps {
  readonly getSystemName: () => string | null
  readonly apply: (title: string) => void
  readonly setTimer: (run: () => void, ms: number) => unknown
  readonly clearTimer: (timer: unknown) => void
}

/** Tries now, then up to TITLE_RETRY_MAX more times at TITLE_RETRY_INTERVAL_MS; returns a cancel function. */
export const applyTitleWithRetry = ({ getSystemName, apply, setTimer, clearTimer }: TitleRetryDeps): (() => void) => {
  let timer: unknown = null
  let retries = 0
  const attempt = (): void => {
    timer = null
    const title = titleFor(getSystemName())
    if (title) return apply(title)
    if (retries >= TITLE_RETRY_MAX) return
    retries += 1
    timer = setTimer(attempt, TITLE_RETRY_INTERVAL_MS)
  }
  attempt()
  return () => {
    if (timer !== null) clearTimer(timer)
  }
}
