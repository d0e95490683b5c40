// Wires the effect handler to this tab's real UI: antd-mobile Toast and Dialog, the router, the tab slice.
import { Dialog, Toast } from 'antd-mobile'
import type { Remote } from 'comlink'
import type { CoreApi } from '../../worker/protocol/commands.ts'
import type { AppRouter } from '../router/router.tsx'
import { canonicalPath } from '../router/paths.ts'
import { appStore } from '../store/index.ts'
import { signalCountersRefresh } from './counters-refresh.ts'
import { createEffectHandler } from './effects.ts'

export const createTabEffects = (router: AppRouter, api: Remote<CoreApi>) =>
  createEffectHandler({
    toast: (text, duration) => Toast.show({ content: text, duration }),
    navigate: (to, search, replace) => void router.navigate({ to, search, replace }),
    currentPath: () => canonicalPath(router.state.location.pathname),
    openModal: ({ title, content, confirmText, onConfirm }, onClosed) =>
      void Dialog.alert({
        title,
        // server text stays a text node: never parsed as HTML
        content: <div className="modal-text">{content}</div>,
        confirmText,
        closeOnMaskClick: false,
        onConfirm,
        afterClose: onClosed,
      }),
    isRepairFlagged: () => appStore.getState().tab.oneClickRepair,
    clearRepairFlag: () => appStore.getState().setTab({ oneClickRepair: false }),
    exitFromMaintenance: () => void api.exitFromMaintenance(),
    refreshCounters: signalCountersRefresh,
    schedule: (run, ms) => setTimeout(run, ms),
  })
