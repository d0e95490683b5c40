// The seven push messages (§4, decisions.md texts). Route-dependent rules are decided per tab from the route each
// tab reports; delays run on the core's clock.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import { DeviceList } from '../devices/device-list.ts'
import { EventHub } from '../events/event-hub.ts'
import { coreCall } from '../http/http-pipeline.ts'
import { HOME_PATHS, VIEWER_PATH } from '../protocol/constants.ts'
import type { PushMessage } from '../protocol/push.ts'
import { StorageKey } from '../protocol/storage-keys.ts'
import { Background } from '../runtime/background.ts'
import { ExitAction } from '../session/exit-action.ts'
import { SessionState } from '../session/session-state.ts'
import { Storage } from '../storage/storage.ts'
import { TabRegistry, type TabInfo } from '../tabs/tab-registry.ts'
import { core, dialog } from '../texts.ts'

const isHome = (t: TabInfo) => HOME_PATHS.includes(t.route.path)
const isViewer = (t: TabInfo) => t.route.path === VIEWER_PATH
const sameCard = (t: TabInfo, userCardId: unknown) =>
  userCardId !== undefined && t.route.viewerCardId !== undefined && t.route.viewerCardId !== null &&
  String(t.route.viewerCardId) === String(userCardId)

export class PushRules extends Context.Service<PushRules, { readonly handle: (m: PushMessage) => void }>()(
  'cloud-phone/PushRules',
) {
  static readonly layer = Layer.effect(
    PushRules,
    Effect.gen(function* () {
      const tabs = yield* TabRegistry
      const hub = yield* EventHub
      const exit = yield* ExitAction
      const storage = yield* Storage
      const devices = yield* DeviceList
      const background = yield* Background
      const config = yield* CoreConfig
      const session = yield* SessionState
      const later = (ms: number, f: () => void) => background.run(Effect.sleep(ms).pipe(Effect.andThen(Effect.sync(f))))

      const changeCard = (m: PushMessage) => {
        for (const tab of tabs.list()) {
          if (!isHome(tab) && !isViewer(tab)) continue
          if (isViewer(tab) && (!sameCard(tab, m.data?.userCardId) || tab.route.oneClickRepair === true)) {
            hub.emit({ _tag: 'ClearRepairFlag' }, tab.tabId)
            continue
          }
          later(config.changeCardToastDelayMs, () =>
            hub.emit({ _tag: 'ShowToast', text: core.cardSwitched }, tab.tabId))
          later(config.changeCardRedirectDelayMs, () => {
            if (tabs.get(tab.tabId)?.route.oneClickRepair === true) return
            hub.emit({ _tag: 'NavigateTo', to: HOME_PATHS[0], replace: true }, tab.tabId)
          })
        }
      }

      const removeAuth = (m: PushMessage) => {
        const diskName = m.data?.diskName ?? ''
        for (const tab of tabs.list()) {
          if (!isHome(tab) && !isViewer(tab)) continue
          if (isViewer(tab) && m.data?.userCardId !== undefined && !sameCard(tab, m.data.userCardId)) continue
          hub.emit({ _tag: 'NavigateTo', to: HOME_PATHS[0], replace: true }, tab.tabId)
          later(config.removeAuthModalDelayMs, () =>
            hub.emit({
              _tag: 'ShowModal', key: `removeAuth:${diskName}`, title: core.removeAuthTitle,
              content: core.removeAuthContent(diskName), confirmText: dialog.ok,
            }, tab.tabId))
        }
      }

      const forcedOffline = (m: PushMessage) =>
        Effect.gen(function* () {
          // the session the frame came in: a switch of account may have ended it and begun another meanwhile
          const { epoch } = session.current()
          // set while the user signs in as somebody (or again) on purpose (worker/session/session.ts)
          const switching = yield* storage.get(StorageKey.isSwitchExit)
          if (switching !== null && switching !== '' && switching !== false && switching !== 'false') return
          // every tab shows the notice from the session's end (a 提示 modal with 去登录), and stays where it is
          yield* exit.runOnce(epoch, { redirect: false, notice: m.data?.content ?? '' })
        })

      /** Synchronous for the pushes that only change state, so a flood costs no fiber per frame. */
      const handle = (m: PushMessage): void => {
        switch (m.type) {
          case 'changeCard':
            return changeCard(m)
          case 'removeAuth':
            return removeAuth(m)
          case 'forcedOfflineMsg':
            background.run(forcedOffline(m))
            return
          case 'sendActivationCode':
            hub.publish({ _tag: 'CounterIncremented', kind: 'activationCode' })
            return
          case 'sendCouponMsg':
            hub.publish({ _tag: 'CounterIncremented', kind: 'coupon' })
            return
          case 'systemAnnouncementMsg':
            if (!hub.snapshot().announcementActive) hub.publish({ _tag: 'AnnouncementFlagChanged', active: true })
            return
          case 'refreshCloudPhoneList':
            background.run(devices.refresh(coreCall))
            return
        }
      }
      return { handle }
    }),
  )
}
