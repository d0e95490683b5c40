// The home's entry grid: where a customer goes from the device list to buy, pay, manage and configure.
import { useNavigate } from '@tanstack/react-router'
import {
  AppstoreOutline, BillOutline, ClockCircleOutline, LockOutline, SendOutline, SetOutline, ShopbagOutline, StarOutline,
} from 'antd-mobile-icons'
import type { ComponentType } from 'react'
import { zhCN } from '../../../../i18n/zh-CN.ts'
import { useBatchSwitch } from '../../../../features/pay/use-meal-presentation.ts'

const t = zhCN.home.shortcuts

const ENTRIES: ReadonlyArray<{ key: keyof typeof t; to: string; Icon: ComponentType<{ fontSize?: number }> }> = [
  { key: 'purchase', to: '/package/purchase/purchase', Icon: ShopbagOutline },
  { key: 'batchRenewal', to: '/package/batchRenewal/batchRenewal', Icon: ClockCircleOutline },
  { key: 'orders', to: '/package/purchaseRecord/purchaseRecord', Icon: BillOutline },
  { key: 'bulk', to: '/package/bulkOperation/bulkOperation', Icon: AppstoreOutline },
  { key: 'authorise', to: '/package/authorizedDevices/authorizedDevices', Icon: LockOutline },
  { key: 'transfer', to: '/package/deviceTransfer/deviceTransfer', Icon: SendOutline },
  { key: 'starCoin', to: '/package/starCoin/starCoin', Icon: StarOutline },
  { key: 'settings', to: '/package/setUp/setUp', Icon: SetOutline },
]

/** Entries offered only while the batch switch (getPhoneMealBatchSwitch) is on. */
const BATCH_ENTRIES: ReadonlySet<string> = new Set(['batchRenewal'])

export const Shortcuts = () => {
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
}
