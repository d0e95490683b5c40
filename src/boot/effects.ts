// Runs the core's effect events in this tab (toast, navigate, modal, repair flag) through injected UI functions, so
// what the tab does with each (one modal per key) is testable without a browser. The core decided every rule before it
// emitted the event (delays, the one-click-repair flag, who exits): the tab performs, it does not decide again.
import type { EffectEvent } from '../../worker/protocol/events.ts'
import { TOAST_DURATION_MS } from '../../worker/protocol/constants.ts'

export interface ModalRequest {
  readonly title: string
  readonly content: string
  readonly confirmText: string
  readonly onConfirm: () => void
}

export interface EffectDeps {
  readonly toast: (text: string, durationMs: number) => void
  readonly navigate: (to: string, search: Record<string, string>, replace: boolean) => void
  /** shows a non-cancelable modal; `onClosed` runs when it is gone. */
  readonly openModal: (request: ModalRequest, onClosed: () => void) => void
  readonly clearRepairFlag: () => void
}

export const createEffectHandler = (deps: EffectDeps): ((event: EffectEvent) => void) => {
  const openKeys = new Set<string>()
  return (event) => {
    switch (event._tag) {
      case 'ShowToast':
        return deps.toast(event.text, TOAST_DURATION_MS)
      case 'NavigateTo':
        return deps.navigate(event.to, { ...event.search }, event.replace)
      case 'ShowModal':
        if (openKeys.has(event.key)) return
        openKeys.add(event.key)
        return deps.openModal(
          { title: event.title, content: event.content, confirmText: event.confirmText, onConfirm: () => {} },
          () => openKeys.delete(event.key),
        )
      case 'ClearRepairFlag':
        return deps.clearRepairFlag()
    }
  }
}
