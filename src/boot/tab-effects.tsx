// Wires the effect handler to this tab's real UI: antd-mobile Toast and Dialog, the router, the tab slice.
import type { Remote } from 'comlink'
import type { CoreApi } from '../../worker/protocol/commands.ts'
import type { AppRouter } from '../router/router.tsx'
import { canonicalPath } from '../router/paths.ts'
import { appStore } from '../store/index.ts'
import { signalCountersRefresh } from './counters-refresh.ts'
import { createEffectHandler } from './effects.ts'

// Toast and Dialog (and their animation library) load on the first effect that needs them, not before first paint.
const overlays = () => import('./overlays.ts')

export const createTabEffects = (router: AppRouter, api: Remote<CoreApi>) =>
  createEffectHandler({
    toast: (text, duration) => void overlays().then(({ Toast }) => Toast.show({ content: text, duration })),
    navigate: (to, search, replace) => void router.navigate({ to, search, replace }),
    currentPath: () => canonicalPath(router.state.location.pathname),
    openModal: ({ title, content, confirmText, onConfirm }, onClosed) =>
      void overlays().then(({ Dialog }) => Dialog.alert({
        title,
        // server text stays a text node: never parsed as HTML
        content: <div className="modal-text">{content}</div>,
        confirmText,
        closeOnMaskClick: false,
        onConfirm,
        afterClose: onClosed,
      })),
    isRepairFlagged: () => appStore.getState().tab.oneClickRepair,
    clearRepairFlag: () => appStore.getState().setTab({ oneClickRepair: false }),
    exitFromMaintenance: () => void api.exitFromMaintenance(),
    refreshCounters: signalCountersRefresh,
    schedule: (run, ms) => setTimeout(run, ms),
  })
