// /package/activationCode/activationCode: exchange a 15-character code. A coupon code shows the coupon it gave, a
// package code the new device; a device code either made a first device or asks which own device gets its days.
import { useNavigate } from '@tanstack/react-router'
import { Button, Popup, Toast } from 'antd-mobile'
import { useState, type FormEvent } from 'react'
import { ActivationCodeType, DeviceCodeStatus } from '../../../../worker/protocol/account.ts'
import { useCore } from '../../../core-context.tsx'
import { ACTIVATION_CODE_LENGTH, isActivationCode, normaliseCode } from '../../../../worker/protocol/validators.ts'
import { FieldError } from '../../../features/auth/fields.tsx'
import { DevicePicker } from '../../../features/devices/DevicePicker.tsx'
import { isAuthorisedToMe } from '../../../features/devices/device-rules.ts'
import { useCall, withData } from '../../../core/use-call.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'
import '../../../ui/form.css'
import '../../../features/account/account.css'
import { PATHS } from '../../../router/paths.ts'

const t = zhCN.account.activation

interface Result {
  readonly text: string
  readonly coupon: boolean
}

export default function ActivationCodeScreen() {
  const call = useCall()
  const { api } = useCore()
  const navigate = useNavigate()
  const devices = useAppStore((s) => s.devices.list)
  const [code, setCode] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<Result | null>(null)
  const [choosing, setChoosing] = useState<{ code: string; days: number } | null>(null)
  const [picked, setPicked] = useState<number[]>([])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const value = normaliseCode(code)
    setResult(null)
    if (!isActivationCode(value)) return setError(t.invalid)
    setError('')
    setBusy(true)
    try {
      const r = withData(await call('exchangeActivationCode', { code: value }))
      if (!r.ok) return setError(r.msg || t.failed)
      const d = r.data
      if (d.codeType === ActivationCodeType.device && d.status === DeviceCodeStatus.chooseDevice) {
        void api.refreshDevices()
        setPicked([])
        setChoosing({ code: value, days: d.days ?? 0 })
        return
      }
      setCode('')
      if (d.codeType === ActivationCodeType.coupon) return setResult({ text: t.coupon(d.couponName ?? ''), coupon: true })
      if (d.codeType === ActivationCodeType.package) return setResult({ text: t.package(d.mealName ?? '', d.diskName ?? ''), coupon: false })
      setResult({ text: t.deviceNew(d.days ?? 0, d.diskName ?? ''), coupon: false })
    } finally {
      setBusy(false)
    }
  }

  const apply = async () => {
    if (!choosing) return
    const userCardId = picked[0]
    if (userCardId === undefined) return void Toast.show({ content: t.chooseRequired })
    setBusy(true)
    const r = withData(await call('applyDeviceActivationCode', { code: choosing.code, userCardId }))
    setBusy(false)
    if (!r.ok) return
    setChoosing(null)
    setCode('')
    setResult({ text: t.deviceApplied(r.data.days, r.data.diskName), coupon: false })
  }

  return (
    <Page testId="activation-page">
      <div className="ac-body">
        <form className="ac-card ac-form" onSubmit={(e) => void submit(e)} noValidate>
          <h1 className="ac-heading">{t.heading}</h1>
          <p className="ac-hint">{t.explain}</p>
          <label className="field">
            <input data-testid="activation-input" type="text" autoComplete="off" autoCapitalize="characters"
              maxLength={ACTIVATION_CODE_LENGTH + 4} placeholder={t.placeholder} aria-label={t.placeholder}
              value={code} onChange={(e) => setCode(e.target.value.toUpperCase())} />
          </label>
          <FieldError text={error} testId="activation-error" />
          <Button type="submit" color="primary" block size="large" shape="rounded" data-testid="activation-submit"
            loading={busy && !choosing} loadingText={t.submitting}>
            {t.submit}
          </Button>
          {result && (
            <div className="ac-result" role="status" data-testid="activation-result">
              <span className="ac-text">{result.text}</span>
              {result.coupon && (
                <Button size="small" color="primary" fill="outline" data-testid="activation-view-coupons"
                  onClick={() => void navigate({ to: PATHS.couponNum })}>
                  {t.viewCoupons}
                </Button>
              )}
            </div>
          )}
        </form>
      </div>

      <Popup visible={choosing !== null} onMaskClick={() => setChoosing(null)} bodyStyle={{ borderRadius: '12px 12px 0 0' }}>
        <div className="ac-popup" data-testid="activation-device-popup">
          <h3>{t.chooseTitle(choosing?.days ?? 0)}</h3>
          <p className="ac-hint">{t.chooseHint}</p>
          <div className="ac-popup-list">
            <DevicePicker devices={devices} value={picked} onChange={setPicked} single
              isEnabled={(d) => !isAuthorisedToMe(d)} testId="activation-device-picker" />
          </div>
          <div className="ac-popup-actions">
            <Button shape="rounded" onClick={() => setChoosing(null)}>{t.chooseCancel}</Button>
            <Button shape="rounded" color="primary" loading={busy} data-testid="activation-device-confirm" onClick={() => void apply()}>
              {t.chooseConfirm}
            </Button>
          </div>
        </div>
      </Popup>
    </Page>
  )
}
