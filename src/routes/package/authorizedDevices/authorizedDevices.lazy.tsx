// /package/authorizedDevices/authorizedDevices: devices I authorised to other phones (authType 0), their details,
// cancelling one (the other user is notified and leaves the device), and authorising a device to a new phone.
import { Button, Dialog, ErrorBlock, Form, Input, List, Popup, Skeleton, Toast } from 'antd-mobile'
import { useCallback, useEffect, useState } from 'react'
import type { PhoneAuthRecord } from '../../../../worker/protocol/devices.ts'
import { useCore } from '../../../core-context.tsx'
import { canDo } from '../../../features/devices/device-rules.ts'
import { DevicePicker } from '../../../features/devices/DevicePicker.tsx'
import { formatTime } from '../../../features/devices/format-time.ts'
import { devicesZhCN as devicesText } from '../../../i18n/zh-CN.devices.ts'
import { useCall, withData } from '../../../core/use-call.ts'
import { NO_ROWS, useLoaded } from '../../../lib/use-loaded.ts'
import '../../../features/devices/devices.css'
import { isMobile } from '../../../../worker/protocol/validators.ts'
import { maskPhone } from '../../../lib/validators.ts'
import { useAppStore } from '../../../store/index.ts'
import { LoadFailed } from '../../../ui/LoadFailed.tsx'
import { Page } from '../../../ui/Page.tsx'

const t = devicesText.auth

export default function AuthorizedDevicesScreen() {
  const { api } = useCore()
  const call = useCall()
  const devices = useAppStore((s) => s.devices.list)
  const [details, setDetails] = useState<PhoneAuthRecord | null>(null)
  const [adding, setAdding] = useState(false)
  const [chosen, setChosen] = useState<number[]>([])
  const [phone, setPhone] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const loaded = useLoaded(useCallback(() => call('getPhoneAuthNewRecord', { authType: 0 }), [call]), t.loadFailed, NO_ROWS)
  const records = loaded.data
  const load = loaded.reload

  useEffect(() => {
    void api.refreshDevices()
  }, [api])

  const openDetails = async (id: number) => {
    const r = withData(await call('phoneAuthDetails', { id }))
    if (r.ok) setDetails(r.data)
  }

  const cancel = async (record: PhoneAuthRecord) => {
    const ok = await Dialog.confirm({
      content: t.cancelConfirm(record.diskName, maskPhone(record.authPhone)),
      confirmText: devicesText.common.confirm, cancelText: devicesText.common.cancel,
    })
    if (!ok) return
    const r = withData(await call('cancelPhoneAuth', { id: record.id }))
    if (!r.ok) return
    Toast.show({ content: t.cancelDone })
    setDetails(r.data)
    void load()
    void api.refreshDevices()
  }

  const submit = async () => {
    if (chosen.length === 0) return setError(t.chooseDevice)
    if (!isMobile(phone)) return setError(devicesText.transfer.invalidPhone)
    setError(null)
    setBusy(true)
    const r = await call('setPhoneAuthUserPhone', { userCardId: chosen[0]!, phone })
    setBusy(false)
    if (!r.ok) return setError(r.msg)
    Toast.show({ content: t.done })
    setAdding(false)
    setChosen([])
    setPhone('')
    void load()
    void api.refreshDevices()
  }

  return (
    <Page testId="authorized-devices-page" right={<a data-testid="auth-add" onClick={() => setAdding(true)}>{t.add}</a>}>
      {loaded.error !== null ? (
        <LoadFailed title={t.loadFailed} message={loaded.error} onRetry={loaded.reload} testId="auth-failed" />
      ) : records === null ? (
        <Skeleton.Paragraph lineCount={4} animated />
      ) : records.length === 0 ? (
        <ErrorBlock status="empty" title={devicesText.common.empty} description="" data-testid="auth-empty" />
      ) : (
        <List data-testid="auth-records">
          {records.map((r) => (
            <List.Item
              key={r.id}
              clickable
              data-testid="auth-record"
              data-status={r.status}
              data-user-card-id={r.userCardId}
              onClick={() => void openDetails(r.id)}
              description={`${t.grantee}：${maskPhone(r.authPhone)} · ${formatTime(r.ctime)}`}
              extra={<span className={r.status === 0 ? 'dv-tag-ok' : 'dv-muted'}>{r.status === 0 ? t.active : t.cancelled}</span>}
            >
              {r.diskName}
            </List.Item>
          ))}
        </List>
      )}
      <Popup visible={details !== null} onMaskClick={() => setDetails(null)} bodyStyle={{ borderRadius: '12px 12px 0 0' }}>
        {details && (
          <div data-testid="auth-details">
            <List header={t.details}>
              <List.Item extra={`${details.diskName}（${details.userCardId}）`}>{t.device}</List.Item>
              <List.Item extra={maskPhone(details.ownerPhone)}>{t.owner}</List.Item>
              <List.Item extra={maskPhone(details.authPhone)}>{t.grantee}</List.Item>
              <List.Item extra={formatTime(details.ctime)}>{t.time}</List.Item>
              <List.Item extra={<span data-testid="auth-details-state">{details.status === 0 ? t.active : t.cancelled}</span>}>{t.state}</List.Item>
              {details.cancelTime && <List.Item extra={formatTime(details.cancelTime)}>{t.cancelTime}</List.Item>}
            </List>
            <div className="dv-actions">
              {details.status === 0 && details.authType === 0 && (
                <Button color="danger" data-testid="auth-cancel" onClick={() => void cancel(details)}>{t.cancel}</Button>
              )}
              <Button onClick={() => setDetails(null)}>{devicesText.model.close}</Button>
            </div>
          </div>
        )}
      </Popup>
      <Popup visible={adding} onMaskClick={() => setAdding(false)} bodyStyle={{ borderRadius: '12px 12px 0 0', maxHeight: '80vh', overflowY: 'auto' }}>
        <div data-testid="auth-form">
          <List header={t.chooseDevice} />
          {devices.filter((d) => canDo(d, 'authorise')).length === 0 && <p className="dv-hint">{t.noDevice}</p>}
          <DevicePicker devices={devices} value={chosen} onChange={setChosen} single isEnabled={(d) => canDo(d, 'authorise')} testId="auth-picker" />
          <Form layout="horizontal" footer={<Button block color="primary" loading={busy} data-testid="auth-submit" onClick={() => void submit()}>{t.submit}</Button>}>
            <Form.Item label={t.phoneLabel}>
              <Input data-testid="auth-phone" type="tel" maxLength={11} placeholder={t.phonePlaceholder} value={phone} onChange={setPhone} clearable />
            </Form.Item>
            {error && <div className="dv-hint dv-tag-fail" data-testid="auth-error">{error}</div>}
          </Form>
        </div>
      </Popup>
    </Page>
  )
}
