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
import type { CardCouponCounters } from '../protocol/events.ts'
import type { PushMessage } from '../protocol/push.ts'
import { EMPTY_CARD_COUPON, StorageKey } from '../protocol/storage-keys.ts'
import { Background } from '../runtime/background.ts'
import { ExitAction } from '../session/exit-action.ts'
import { Storage } from '../storage/storage.ts'
import { TabRegistry, type TabInfo } from '../tabs/tab-registry.ts'
import { Texts } from '../texts.ts'

const isHome = (t: TabInfo) => HOME_PATHS.includes(t.route.path)
const isViewer = (t: TabInfo) => t.route.path === VIEWER_PATH
const sameCard = (t: TabInfo, userCardId: unknown) =>
  userCardId !== undefined && t.route.viewerCardId !== undefined && t.route.viewerCardId !== null &&
  String(t.route.viewerCardId) === String(userCardId)

export class PushRules extends Context.Service<PushRules, { readonly handle: (m: PushMessage) => Effect.Effect<void> }>()(
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
      const later = (ms: number, f: () => void) => background.run(Effect.sleep(ms).pipe(Effect.andThen(Effect.sync(f))))

      const changeCard = (m: PushMessage) => {
        for (const tab of tabs.list()) {
          if (!isHome(tab) && !isViewer(tab)) continue
          if (isViewer(tab) && (!sameCard(tab, m.data?.userCardId) || tab.route.oneClickRepair === true)) {
            hub.emit({ _tag: 'ClearRepairFlag' }, tab.tabId)
            continue
          }
          later(config.changeCardToastDelayMs, () =>
            hub.emit({ _tag: 'ShowToast', text: Texts.cardSwitched, delayMs: 0 }, tab.tabId))
          later(config.changeCardRedirectDelayMs, () => {
            if (tabs.get(tab.tabId)?.route.oneClickRepair === true) return
            hub.emit({ _tag: 'NavigateTo', to: HOME_PATHS[0], replace: true, delayMs: 0, unlessRepairFlagged: true }, tab.tabId)
          })
        }
      }

      const removeAuth = (m: PushMessage) => {
        const diskName = m.data?.diskName ?? ''
        for (const tab of tabs.list()) {
          if (!isHome(tab) && !isViewer(tab)) continue
          if (isViewer(tab) && m.data?.userCardId !== undefined && !sameCard(tab, m.data.userCardId)) continue
          hub.emit({ _tag: 'NavigateTo', to: HOME_PATHS[0], replace: true, delayMs: 0 }, tab.tabId)
          later(config.removeAuthModalDelayMs, () =>
            hub.emit({
              _tag: 'ShowModal', key: `removeAuth:${diskName}`, title: Texts.removeAuthTitle,
              content: Texts.removeAuthContent(diskName), confirmText: Texts.ok, action: 'none', delayMs: 0,
            }, tab.tabId))
        }
      }

      const forcedOffline = (m: PushMessage) =>
        Effect.gen(function* () {
          const switching = yield* storage.get(StorageKey.isSwitchExit)
          if (switching !== null && switching !== '' && switching !== false && switching !== 'false') return
          yield* exit.run({ redirect: false })
          hub.emit({
            _tag: 'ShowModal', key: 'forcedOffline', title: Texts.tipTitle, content: m.data?.content ?? '',
            confirmText: Texts.goLogin, action: 'relaunchLogin', delayMs: 0, cancelable: false,
          }, 'all')
        })

      // The counters are computed from the in-memory snapshot inside publish, so concurrent frames cannot lose an
      // increment; storage is written after the tabs already have the new value.
      const countUp = (kind: 'activationCode' | 'coupon') =>
        Effect.gen(function* () {
          let counters: CardCouponCounters = EMPTY_CARD_COUPON
          yield* hub.publish((snap) => {
            counters = { ...snap.cardCoupon, my: snap.cardCoupon.my + 1, [kind]: snap.cardCoupon[kind] + 1 }
            return { _tag: 'CardCouponChanged', counters }
          })
          hub.emit({ _tag: 'CountersRefresh', kind }, 'all')
          yield* storage.set(StorageKey.cardCouponPush, counters)
        })

      const handle = (m: PushMessage): Effect.Effect<void> => {
        switch (m.type) {
          case 'changeCard':
            return Effect.sync(() => changeCard(m))
          case 'removeAuth':
            return Effect.sync(() => removeAuth(m))
          case 'forcedOfflineMsg':
            return forcedOffline(m)
          case 'sendActivationCode':
            return countUp('activationCode')
          case 'sendCouponMsg':
            return countUp('coupon')
          case 'systemAnnouncementMsg':
            return Effect.asVoid(hub.publish({ _tag: 'AnnouncementFlagChanged', active: true }))
          case 'refreshCloudPhoneList':
            return Effect.asVoid(devices.refresh(coreCall))
        }
      }
      return { handle }
    }),
  )
}
