// Runs the core's effect events in this tab (toast, navigate, modal, repair flag) through injected
// UI functions, so the rules (delays, unlessRepairFlagged, one modal per key) are testable without a browser.
import type { EffectEvent } from '../../worker/protocol/events.ts'
import { TOAST_DURATION_MS } from '../../worker/protocol/constants.ts'
import { PATHS } from '../router/paths.ts'

export interface ModalRequest {
  readonly title: string
  readonly content: string
  readonly confirmText: string
  readonly onConfirm: () => void
}

export interface EffectDeps {
  readonly toast: (text: string, durationMs: number) => void
  readonly navigate: (to: string, search: Record<string, string>, replace: boolean) => void
  readonly currentPath: () => string
  /** shows a non-cancelable modal; `onClosed` runs when it is gone. */
  readonly openModal: (request: ModalRequest, onClosed: () => void) => void
  readonly isRepairFlagged: () => boolean
  readonly clearRepairFlag: () => void
  /** maintenance acknowledged: the exit action of the core (without its own redirect) then login. */
  readonly exitFromMaintenance: () => void
  readonly schedule: (run: () => void, ms: number) => void
}

export const createEffectHandler = (deps: EffectDeps): ((event: EffectEvent) => void) => {
  const openKeys = new Set<string>()
  const later = (ms: number, run: () => void): void => (ms > 0 ? deps.schedule(run, ms) : run())

  const modalAction = (action: 'none' | 'relaunchLogin' | 'exitUnlessOnLogin'): void => {
    if (action === 'relaunchLogin') deps.navigate(PATHS.login, {}, true)
    if (action === 'exitUnlessOnLogin' && deps.currentPath() !== PATHS.login) deps.exitFromMaintenance()
  }

  return (event) => {
    switch (event._tag) {
      case 'ShowToast':
        return later(event.delayMs, () => deps.toast(event.text, TOAST_DURATION_MS))
      case 'NavigateTo':
        return later(event.delayMs, () => {
          if (event.unlessRepairFlagged && deps.isRepairFlagged()) return
          deps.navigate(event.to, { ...event.search }, event.replace)
        })
      case 'ShowModal':
        if (openKeys.has(event.key)) return
        openKeys.add(event.key)
        return later(event.delayMs, () =>
          deps.openModal(
            { title: event.title, content: event.content, confirmText: event.confirmText, onConfirm: () => modalAction(event.action) },
            () => openKeys.delete(event.key),
          ),
        )
      case 'ClearRepairFlag':
        return deps.clearRepairFlag()
    }
  }
}
