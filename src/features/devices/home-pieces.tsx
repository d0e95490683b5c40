// Pieces of the home screen over the tab's store: the system announcement bar, the maintenance notice, the
// cardCouponPush counters, the ad pop-up with its click rules, and the current device by sliding key.
import { Badge, Image, Mask, NoticeBar, Toast } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { Device } from '../../../worker/protocol/devices.ts'
import { appStore, useAppStore } from '../../store/index.ts'
import { adTarget, type AdLike } from './ad-click.ts'
import { devicesText } from './texts.ts'

const t = devicesText.home
const NOTIFICATIONS = '/package/notificationMessage/notificationMessage'
const COUPONS = '/package/couponNum/couponNum'

/** systemAnnouncementMsg (§4): shown while the shared flag is set; closing hides it in this tab. */
export const AnnouncementBar = () => {
  const active = useAppStore((s) => s.announcementActive)
  const [closed, setClosed] = useState(false)
  const navigate = useNavigate()
  if (!active || closed) return null
  return (
    <div className="dv-announcement" data-testid="announcement-bar" onClick={() => void navigate({ to: NOTIFICATIONS })}>
      <NoticeBar content={t.announcement} color="info" closeable onClose={() => setClosed(true)} speed={80} style={{ '--font-size': '14px' } as React.CSSProperties} />
    </div>
  )
}

/** A standing notice while maintenance is on (the acknowledge modal itself comes from the core). */
export const MaintenanceNotice = () => {
  const m = useAppStore((s) => s.maintenance)
  if (!m?.maintenanceSwitch) return null
  const text = m.showTime ? `${m.maintenanceContent} ${t.maintenanceUntil(m.showTime)}` : m.maintenanceContent
  return (
    <div className="dv-announcement" data-testid="maintenance-notice">
      <NoticeBar content={text} color="alert" speed={80} />
    </div>
  )
}

/** cardCouponPush counters (§3, §4): total on "my", activation codes and coupons; tapping opens the coupon page. */
export const CouponCounters = () => {
  const c = useAppStore((s) => s.counters)
  const navigate = useNavigate()
  const badge = (n: number) => (n > 0 ? (n > 99 ? '99+' : String(n)) : null)
  return (
    <div className="dv-counters" data-testid="coupon-counters" onClick={() => void navigate({ to: COUPONS })}>
      <Badge content={badge(c.my)}><span data-testid="counter-my" data-count={c.my}>{t.counters.my}</span></Badge>
      <Badge content={badge(c.activationCode)}><span data-testid="counter-activation" data-count={c.activationCode}>{t.counters.activationCode}</span></Badge>
      <Badge content={badge(c.coupon)}><span data-testid="counter-coupon" data-count={c.coupon}>{t.counters.coupon}</span></Badge>
    </div>
  )
}

export interface PopUpAd extends AdLike {
  readonly id: number | string
  readonly imageUrl: string
}

/** popUpAdsList: one ad at a time; a click follows the ad click rule, a failed jump shows the spec's toast. */
export const AdPopup = ({ ads, onDone }: { ads: ReadonlyArray<PopUpAd>; onDone?: () => void }) => {
  const [index, setIndex] = useState(0)
  const navigate = useNavigate()
  const ad = ads[index]
  const next = () => {
    if (index + 1 >= ads.length) onDone?.()
    setIndex((i) => i + 1)
  }
  if (!ad) return null
  const click = () => {
    const target = adTarget(ad)
    next()
    if (target.kind === 'failed') return void Toast.show({ content: t.adFailed })
    void navigate({ to: target.to, search: target.search })
  }
  return (
    <Mask visible onMaskClick={next}>
      <div className="center-state" data-testid="ad-popup" data-ad-id={ad.id}>
        <Image src={ad.imageUrl} width="80%" fit="contain" onClick={click} data-testid="ad-image" />
        <button type="button" data-testid="ad-close" aria-label={t.adClose} onClick={next}>×</button>
      </div>
    </Mask>
  )
}

/** currentSlidingKey (§3): the device the home carousel shows, kept per tab; falls back to the first device. */
export const slidingKeyOf = (d: Pick<Device, 'userCardId'>): string => String(d.userCardId)

export const useCurrentDevice = (): { device: Device | null; select: (d: Device) => void } => {
  const devices = useAppStore((s) => s.devices.list)
  const key = useAppStore((s) => s.tab.currentSlidingKey)
  const device = devices.find((d) => slidingKeyOf(d) === key) ?? devices[0] ?? null
  return { device, select: (d) => appStore.getState().setTab({ currentSlidingKey: slidingKeyOf(d) }) }
}
