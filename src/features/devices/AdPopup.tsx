// The home pop-up ads (§3 popUpAdsList), a chunk of its own: only a signed-in user with ads due loads it (and the
// swiper it needs), so the home's first paint does not carry it.
import { Image, Mask, Swiper, Toast } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { useCore } from '../../core-context.tsx'
import { SWIPER_INTERVAL_MS } from '../../ui/kit/defaults.ts'
import { Points } from '../analytics/points.ts'
import { track } from '../analytics/track.ts'
import type { PopUpAd } from './home-pieces.tsx'
import { followAd } from './home-rules.ts'
import { devicesZhCN as devicesText } from '../../i18n/zh-CN.devices.ts'
import './home-pieces.css'

const t = devicesText.home

/**
 * popUpAdsList: several ads turn by themselves every 3000 ms (§9 swiper) and can be swiped; a click follows the ad
 * click rule (§2), a failed jump shows the spec's toast; closing (× or the mask) closes them all. At the kit's popup
 * z-index (10075), under dialogs and toasts, so a core modal (maintenance, forced offline) stays reachable.
 */
const AdPopup = ({ ads, onDone }: { ads: ReadonlyArray<PopUpAd>; onDone?: () => void }) => {
  const [open, setOpen] = useState(true)
  const [active, setActive] = useState(0)
  const navigate = useNavigate()
  const { api } = useCore()
  if (!open || ads.length === 0) return null
  const close = () => {
    setOpen(false)
    onDone?.()
  }
  const click = (ad: PopUpAd) => {
    close()
    track(api, Points.adClick)
    followAd(ad, t.adFailed, {
      navigate: (to, search) => void navigate({ to, search }),
      toast: (content) => void Toast.show({ content }),
    })
  }
  const slide = (ad: PopUpAd, i: number) => (
    <button type="button" className="hp-ad-image" data-testid="ad-image" data-ad-id={ad.id} data-active={i === active}
      aria-label={ad.adName} onClick={() => click(ad)}>
      <Image src={ad.imageUrl} alt={ad.adName} width="100%" height="100%" fit="contain" lazy={false} />
    </button>
  )
  return (
    <Mask visible onMaskClick={close}>
      <div className="hp-ad" data-testid="ad-popup" data-count={ads.length} data-index={active}>
        {ads.length > 1 ? (
          <Swiper className="hp-ad-swiper" data-testid="ad-swiper" autoplay autoplayInterval={SWIPER_INTERVAL_MS} loop onIndexChange={setActive}>
            {ads.map((ad, i) => <Swiper.Item key={ad.id}>{slide(ad, i)}</Swiper.Item>)}
          </Swiper>
        ) : slide(ads[0]!, 0)}
        <button type="button" className="hp-ad-close" data-testid="ad-close" aria-label={t.adClose} onClick={close}>×</button>
      </div>
    </Mask>
  )
}

export default AdPopup
