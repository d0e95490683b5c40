// The notices a tab raises from the shared state rather than from an effect event, so that every tab raises them,
// including one that opens or reloads meanwhile (decisions.md "Several tabs, one session"): why the session ended
// (a toast, or the forced-offline modal) and the maintenance modal once per maintenance period.
import type { Snapshot } from '../../worker/protocol/commands.ts'
import { RECENT_EXIT_MS, TOAST_DURATION_MS } from '../../worker/protocol/constants.ts'
import type { MaintenanceMsg } from '../../worker/protocol/system.ts'

export interface StateNoticeDeps {
  readonly toast: (text: string) => void
  /** the forced-offline notice: 提示, the content, 去登录 (no cancel). */
  readonly forcedOffline: (content: string) => void
  readonly maintenance: (msg: MaintenanceMsg) => void
  readonly navigateToLogin: () => void
  /** exits this tab already told the user about (kept across a reload of the tab: sessionStorage). */
  readonly seen: { readonly has: (at: number) => boolean; readonly add: (at: number) => void }
  readonly now: () => number
  readonly schedule: (run: () => void, ms: number) => void
}

/** Call with every new state; `live` when it came as events (not a snapshot of a tab that just (re)attached). */
export const createStateNotices = (deps: StateNoticeDeps) => {
  let shownPeriod = 0
  const raised = new Set<number>()
  return (state: Snapshot, live: boolean): void => {
    const end = state.session.ended
    if (end !== null && !raised.has(end.at) && !deps.seen.has(end.at) && deps.now() - end.at < RECENT_EXIT_MS) {
      raised.add(end.at)
      if (end.reason !== null) {
        deps.toast(end.reason)
        // told once the toast had its time: a reload that cut it short (often the reload of the very tab whose call
        // failed) leaves it untold, and the page after the reload tells again
        deps.schedule(() => deps.seen.add(end.at), TOAST_DURATION_MS)
      } else {
        deps.seen.add(end.at)
      }
      if (end.notice !== null) deps.forcedOffline(end.notice)
      // a live tab goes with the core's NavigateTo, in step with the others; one that attached since goes now
      if (end.redirect && !live) deps.navigateToLogin()
    }
    const m = state.maintenance
    if (m.msg !== null && m.msg.maintenanceSwitch && m.period !== shownPeriod) {
      shownPeriod = m.period
      deps.maintenance(m.msg)
    }
  }
}
