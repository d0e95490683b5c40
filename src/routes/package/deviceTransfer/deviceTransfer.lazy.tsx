// /package/deviceTransfer/deviceTransfer: choose my devices to transfer (next: the transfer page with the recipient),
// and the transfer records (out and in).
import { Button, ErrorBlock, List, Tabs } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useState } from 'react'
import type { TransferRecord } from '../../../../worker/protocol/devices.ts'
import { useCore } from '../../../core-context.tsx'
import { canDo } from '../../../features/devices/device-rules.ts'
import { DevicePicker } from '../../../features/devices/DevicePicker.tsx'
import { formatTime } from '../../../features/devices/format-time.ts'
import { devicesZhCN as devicesText } from '../../../i18n/zh-CN.devices.ts'
import { useCall } from '../../../core/use-call.ts'
import '../../../features/devices/devices.css'
import { maskPhone } from '../../../lib/validators.ts'
import { useAppStore } from '../../../store/index.ts'
import { usePaged } from '../../../lib/use-paged.ts'
import { PagedFooter } from '../../../ui/kit/LoadMoreFooter.tsx'
import { Page } from '../../../ui/Page.tsx'
import { PATHS } from '../../../router/paths.ts'

const t = devicesText.transfer

const TransferRecords = () => {
  const call = useCall()
  const fetchPage = useCallback((pageNum: number, pageSize: number) => call('transferRecords', { pageNum, pageSize }), [call])
  const records = usePaged(fetchPage, t.recordsFailed)
  return (
    <>
      {records.loaded && records.list.length === 0 && <ErrorBlock status="empty" title={devicesText.common.empty} description="" />}
      <List data-testid="transfer-records">
        {records.list.map((r) => (
          <List.Item
            key={r.id}
            data-testid="transfer-record"
            data-direction={r.direction}
            description={`${r.direction === 'out' ? t.outTo(maskPhone(r.counterpartPhone)) : t.inFrom(maskPhone(r.counterpartPhone))} · ${formatTime(r.ctime)}`}
            extra={<span className={r.direction === 'out' ? 'dv-tag-fail' : 'dv-tag-ok'}>{r.direction === 'out' ? t.out : t.in}</span>}
          >
            {r.diskName}（{r.userCardId}）
          </List.Item>
        ))}
      </List>
      <PagedFooter paged={records} testId="transfer-records-more" />
    </>
  )
}

export default function DeviceTransferScreen() {
  const { api } = useCore()
  const navigate = useNavigate()
  const devices = useAppStore((s) => s.devices.list)
  const [chosen, setChosen] = useState<number[]>([])
  const [tab, setTab] = useState('devices')

  useEffect(() => {
    void api.refreshDevices()
  }, [api])

  const transferable = devices.filter((d) => canDo(d, 'transfer'))
  return (
    <Page testId="device-transfer-page">
      <Tabs activeKey={tab} onChange={setTab}>
        <Tabs.Tab title={<span data-testid="transfer-tab-devices">{t.devicesTab}</span>} key="devices">
          <p className="dv-hint">{t.explain}</p>
          {transferable.length === 0 && <p className="dv-hint" data-testid="transfer-none">{t.none}</p>}
          <DevicePicker devices={devices} value={chosen} onChange={setChosen} isEnabled={(d) => canDo(d, 'transfer')} testId="transfer-picker" />
          <div className="dv-actions">
            <Button
              data-testid="transfer-next"
              color="primary"
              disabled={chosen.length === 0}
              onClick={() => void navigate({ to: PATHS.ubertragungsseite, search: { userCardIds: chosen.join(',') } })}
            >
              {t.next}
            </Button>
          </div>
        </Tabs.Tab>
        <Tabs.Tab title={<span data-testid="transfer-tab-records">{t.records}</span>} key="records">
          {tab === 'records' && <TransferRecords />}
        </Tabs.Tab>
      </Tabs>
    </Page>
  )
}
