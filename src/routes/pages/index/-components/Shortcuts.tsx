// The home's entry grid: where a customer goes from the device list to buy, pay, manage and configure.
import { memo } from 'react'
import { useNavigate } from '@tanstack/react-router'
import {
  AppstoreOutline, BillOutline, TeamOutline, ClockCircleOutline, LikeOutline, LockOutline, SendOutline, SetOutline, ShopbagOutline,
  StarOutline,
} from 'antd-mobile-icons'
import type { ComponentType } from 'react'
import { zhCN } from '../../../../i18n/zh-CN.ts'
import { useBatchSwitch } from '../../../../features/pay/use-meal-presentation.ts'
import { PATHS } from '../../../../router/paths.ts'

const t = zhCN.home.shortcuts

const ENTRIES: ReadonlyArray<{ key: keyof typeof t; to: string; Icon: ComponentType<{ fontSize?: number }> }> = [
  { key: 'purchase', to: PATHS.purchase, Icon: ShopbagOutline },
  { key: 'orders', to: PATHS.purchaseRecord, Icon: BillOutline },
  // my usable cloud phones, most used first (getCommonUserCard): a way back to a phone, so beside the list
  { key: 'recommended', to: PATHS.recommendedCloudPhone, Icon: LikeOutline },
  { key: 'bulk', to: PATHS.bulkOperation, Icon: AppstoreOutline },
  { key: 'authorise', to: PATHS.authorizedDevices, Icon: LockOutline },
  { key: 'transfer', to: PATHS.deviceTransfer, Icon: SendOutline },
  { key: 'starCoin', to: PATHS.starCoin, Icon: StarOutline },
  { key: 'settings', to: PATHS.setUp, Icon: SetOutline },
  // group control (issue 23): after the spec's entries, so none of theirs moves
  { key: 'group', to: PATHS.groupControl, Icon: TeamOutline },
  // last: the switch answers after the first paint on a reload, and an entry that appears in the grid's last cell
  // moves nothing (one earlier in the grid shifted every entry after it by a cell)
  { key: 'batchRenewal', to: PATHS.batchRenewal, Icon: ClockCircleOutline },
]

/** Entries offered only while the batch switch (getPhoneMealBatchSwitch) is on. */
const BATCH_ENTRIES: ReadonlySet<string> = new Set(['batchRenewal'])

export const Shortcuts = memo(function Shortcuts() {
  const navigate = useNavigate()
  const batchOn = useBatchSwitch()
  return (
    <nav className="home-shortcuts" data-testid="home-shortcuts">
      {ENTRIES.filter(({ key }) => batchOn === true || !BATCH_ENTRIES.has(key)).map(({ key, to, Icon }) => (
        <button key={key} type="button" className="home-shortcut" data-testid={`shortcut-${key}`} onClick={() => void navigate({ to })}>
          <Icon fontSize={22} />
          <span>{t[key]}</span>
        </button>
      ))}
    </nav>
  )
})
