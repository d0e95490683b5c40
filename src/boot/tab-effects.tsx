// Wires the effect handler and the state notices to this tab's real UI: antd-mobile Toast and Dialog, the router, the
// tab slice.
import type { CoreApi } from '../../worker/protocol/commands.ts'
import { TOAST_DURATION_MS } from '../../worker/protocol/constants.ts'
import { zhCN } from '../i18n/zh-CN.ts'
import type { AppRouter } from '../router/router.tsx'
import { PATHS } from '../router/paths.ts'
import { appStore } from '../store/index.ts'
import { createEffectHandler, type ModalRequest } from './effects.ts'
import { createStateNotices } from './state-notices.ts'

// Toast and Dialog (and their animation library) load on the first effect that needs them, not before first paint.
const overlays = () => import('./overlays.ts')

const openModal = ({ title, content, confirmText, onConfirm }: ModalRequest, onClosed: () => void) =>
  void overlays().then(({ Dialog }) => Dialog.alert({
    title,
    // server text stays a text node: never parsed as HTML
    content: <div className="modal-text">{content}</div>,
    confirmText,
    closeOnMaskClick: false,
    onConfirm,
    afterClose: onClosed,
  }))

const toast = (text: string) => void overlays().then(({ Toast }) => Toast.show({ content: text, duration: TOAST_DURATION_MS }))

/** exits this tab already told the user about, kept across a reload of the tab (not shared with other tabs). */
const SEEN_EXITS_KEY = 'cloud-phone:seen-exits'
const seenExits = {
  has: (at: number) => (sessionStorage.getItem(SEEN_EXITS_KEY) ?? '').split(',').includes(String(at)),
  add: (at: number) => sessionStorage.setItem(SEEN_EXITS_KEY, [...(sessionStorage.getItem(SEEN_EXITS_KEY) ?? '').split(',').slice(-9), at].join(',')),
}

export const createTabEffects = (router: AppRouter, api: CoreApi) => {
  const t = zhCN.sessionNotices
  const toLogin = () => void router.navigate({ to: PATHS.login, replace: true })
  const onEffect = createEffectHandler({
    toast: (text) => toast(text),
    navigate: (to, search, replace) => void router.navigate({ to, search, replace }),
    openModal,
    clearRepairFlag: () => appStore.getState().setTab({ oneClickRepair: false }),
  })
  const onState = createStateNotices({
    toast,
    forcedOffline: (content) => openModal({ title: zhCN.dialog.tipTitle, content, confirmText: t.goLogin, onConfirm: toLogin }, () => {}),
    maintenance: (m) => openModal({
      title: zhCN.dialog.tipTitle, content: `${m.maintenanceContent}\n${t.maintenanceEta(m.showTime)}`, confirmText: zhCN.dialog.ok,
      // §8: acknowledging runs the exit action, unless this tab is on the login page (the core checks)
      onConfirm: () => void api.exitFromMaintenance(),
    }, () => {}),
    navigateToLogin: toLogin,
    seen: seenExits,
    now: () => Date.now(),
    schedule: (run, ms) => setTimeout(run, ms),
  })
  return { onEffect, onState }
}
