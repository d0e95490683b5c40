// Pieces of the home screen over the tab's store: the system announcement bar, the maintenance notice, the
// cardCouponPush counters and the current device by sliding key (the ad pop-up is AdPopup.tsx, loaded when due).
import { Badge, NoticeBar } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { memo, type CSSProperties, type MouseEvent, useEffect, useState } from 'react'
import type { Device } from '../../../worker/protocol/devices.ts'
import type { Ad } from '../../../worker/protocol/messages.ts'
import { appStore, useAppStore } from '../../store/index.ts'
import { useCore } from '../../core-context.tsx'
import { Points } from '../analytics/points.ts'
import { track } from '../analytics/track.ts'
import { followAd } from './home-rules.ts'
import { devicesZhCN as devicesText } from '../../i18n/zh-CN.devices.ts'
import { useCall } from '../../core/use-call.ts'
import './home-pieces.css'
import { PATHS } from '../../router/paths.ts'

const t = devicesText.home
/** §9 notice bar: speed 80, font 14. */
const NOTICE_STYLE = { '--font-size': '14px' } as CSSProperties

// closing the bar hides it for the rest of this tab's life, across visits to home
let announcementClosed = false

/**
 * systemAnnouncementMsg (§4): shown while the shared flag is set, with the newest unread pop-up announcement
 * (getNoticePopUpPush) as its text when there is one; tapping opens the notifications, closing hides it in this tab.
 */
export const AnnouncementBar = memo(function AnnouncementBar() {
  const active = useAppStore((s) => s.announcementActive)
  const [closed, setClosed] = useState(announcementClosed)
  const [text, setText] = useState<string>(t.announcement)
  const navigate = useNavigate()
  const call = useCall()
  useEffect(() => {
    if (!active || closed) return
    let live = true
    void call('getNoticePopUpPush', {}).then((r) => {
      if (live && r.ok && r.data) setText(t.announcementOf(r.data.title, r.data.content))
    })
    return () => {
      live = false
    }
  }, [active, closed, call])
  if (!active || closed) return null
  const open = (e: MouseEvent) => {
    if ((e.target as Element).closest('.adm-notice-bar-close')) return
    void navigate({ to: PATHS.notificationMessage })
  }
  const close = () => {
    announcementClosed = true
    setClosed(true)
  }
  return (
    <div className="dv-announcement" data-testid="announcement-bar" onClick={open}>
      <NoticeBar content={text} color="info" closeable onClose={close} speed={80} style={NOTICE_STYLE} />
    </div>
  )
})

/** A standing notice while maintenance is on (the acknowledge modal itself comes from the core). */
export const MaintenanceNotice = memo(function MaintenanceNotice() {
  const m = useAppStore((s) => s.maintenance.msg)
  if (!m?.maintenanceSwitch) return null
  const text = m.showTime ? `${m.maintenanceContent} ${t.maintenanceUntil(m.showTime)}` : m.maintenanceContent
  return (
    <div className="dv-announcement" data-testid="maintenance-notice">
      <NoticeBar content={text} color="alert" speed={80} style={NOTICE_STYLE} />
    </div>
  )
})

const badge = (n: number) => (n > 0 ? (n > 99 ? '99+' : String(n)) : null)

/** cardCouponPush counters (§3, §4): total on "my", activation codes and coupons; tapping opens the coupon page. */
export const CouponCounters = memo(function CouponCounters() {
  const c = useAppStore((s) => s.counters)
  const navigate = useNavigate()
  const cells = [
    { key: 'my', testId: 'counter-my', label: t.counters.my, count: c.my },
    { key: 'activation', testId: 'counter-activation', label: t.counters.activationCode, count: c.activationCode },
    { key: 'coupon', testId: 'counter-coupon', label: t.counters.coupon, count: c.coupon },
  ]
  return (
    <div className="hp-counters" data-testid="coupon-counters" role="button" tabIndex={0} onClick={() => void navigate({ to: PATHS.couponNum })}>
      {cells.map((cell) => (
        <Badge key={cell.key} content={badge(cell.count)}>
          <span className="hp-counter" data-testid={cell.testId} data-count={cell.count}>{cell.label}</span>
        </Badge>
      ))}
      <span className="hp-counters-hint">{t.counters.hint}</span>
    </div>
  )
})

export type PopUpAd = Pick<Ad, 'id' | 'adName' | 'imageUrl' | 'clickUrl' | 'phoneType' | 'androidVersion'>

/** currentSlidingKey (§3): the device the home list has selected, kept per tab; falls back to the first device. */
export const slidingKeyOf = (d: Pick<Device, 'userCardId'>): string => String(d.userCardId)

export const selectDevice = (d: Pick<Device, 'userCardId'>): void => appStore.getState().setTab({ currentSlidingKey: slidingKeyOf(d) })

/** The current device of a list: the one the tab remembers (`key`), else the first. */
export const currentDeviceOf = (devices: readonly Device[], key: string | null): Device | null =>
  devices.find((d) => slidingKeyOf(d) === key) ?? devices[0] ?? null

export const useCurrentDevice = (): { device: Device | null; select: (d: Device) => void } => {
  const devices = useAppStore((s) => s.devices.list)
  const key = useAppStore((s) => s.tab.currentSlidingKey)
  return { device: currentDeviceOf(devices, key), select: selectDevice }
}
