// /package/ubertragungsseite/ubertragungsseite?userCardIds=1,2: the transfer page. Shows the chosen devices, takes
// the recipient's phone number and transfers on confirmation. Visitors may open it (§6) and are asked to log in.
import { Button, Dialog, Form, Input, List, Result } from 'antd-mobile'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { useCore } from '../../../core-context.tsx'
import { devicesZhCN as devicesText } from '../../../i18n/zh-CN.devices.ts'
import { useCall, withData } from '../../../core/use-call.ts'
import '../../../features/devices/devices.css'
import { isMobile } from '../../../../worker/protocol/validators.ts'
import { maskPhone } from '../../../lib/validators.ts'
import { PATHS } from '../../../router/paths.ts'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'

const route = getRouteApi(PATHS.ubertragungsseite)

const t = devicesText.transfer

export default function TransferPageScreen() {
  const { api } = useCore()
  const call = useCall()
  const navigate = useNavigate()
  const loggedIn = useAppStore((s) => s.session.loggedIn)
  const devices = useAppStore((s) => s.devices.list)
  const search = route.useSearch()
  const ids = (search.userCardIds ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0)
  const [phone, setPhone] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState<number | null>(null)

  if (!loggedIn) {
    return (
      <Page testId="transfer-page">
        <div className="center-state" data-testid="transfer-visitor">
          <h2>{t.pageTitle}</h2>
          <p>{t.visitorExplain}</p>
          <Button color="primary" data-testid="transfer-login" onClick={() => void navigate({ to: PATHS.login })}>{devicesText.common.toLogin}</Button>
        </div>
      </Page>
    )
  }

  if (done !== null) {
    return (
      <Page testId="transfer-page">
        <Result status="success" title={t.done(done)} data-testid="transfer-done" />
        <div className="dv-actions">
          <Button color="primary" data-testid="transfer-home" onClick={() => void navigate({ to: PATHS.home, replace: true })}>{devicesText.common.backHome}</Button>
        </div>
      </Page>
    )
  }

  const submit = async () => {
    if (!isMobile(phone)) return setError(t.invalidPhone)
    setError(null)
    const ok = await Dialog.confirm({ content: t.confirm(ids.length, maskPhone(phone)), confirmText: devicesText.common.confirm, cancelText: devicesText.common.cancel })
    if (!ok) return
    setBusy(true)
    const r = withData(await call('transferDevices', { userCardIds: ids, phone }))
    setBusy(false)
    if (!r.ok) return setError(r.msg)
    setDone(r.data.count)
    void api.refreshDevices()
  }

  return (
    <Page testId="transfer-page">
      <List header={t.choose} data-testid="transfer-chosen">
        {ids.map((id) => (
          <List.Item key={id} data-testid="transfer-chosen-item">
            {devices.find((d) => d.userCardId === id)?.diskName ?? id}（{id}）
          </List.Item>
        ))}
      </List>
      {ids.length === 0 ? (
        <div className="dv-actions">
          <Button color="primary" data-testid="transfer-choose" onClick={() => void navigate({ to: PATHS.deviceTransfer })}>{t.chooseAgain}</Button>
        </div>
      ) : (
        <Form
          layout="horizontal"
          footer={<Button block color="primary" loading={busy} data-testid="transfer-submit" onClick={() => void submit()}>{t.submit}</Button>}
        >
          <Form.Item label={t.phoneLabel}>
            <Input data-testid="transfer-phone" type="tel" maxLength={11} placeholder={t.phonePlaceholder} value={phone} onChange={setPhone} clearable />
          </Form.Item>
          {error && <div className="dv-hint dv-tag-fail" data-testid="transfer-error">{error}</div>}
        </Form>
      )}
      <p className="dv-hint">{t.explain}</p>
    </Page>
  )
}
