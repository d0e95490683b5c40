// /package/setSecurityCode/setSecurityCode: the SMS code sent to the account's own phone, then the 6-digit security
// code twice. The server checks the SMS code first (checkPhoneCode gives a short-lived ticket), then stores the code.
import { Toast } from 'antd-mobile'
import { useEffect, useState, type FormEvent } from 'react'
import { SmsPurpose } from '../../../../worker/protocol/session.ts'
import { CodeField, FieldError } from '../../../features/auth/fields.tsx'
import { useSmsCode } from '../../../features/auth/use-sms-code.ts'
import { useCall, withData } from '../../../core/use-call.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { isCode, isSecurityCode, SECURITY_CODE_LENGTH } from '../../../../worker/protocol/validators.ts'
import { maskPhone } from '../../../lib/validators.ts'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'
import { useBack } from '../../../ui/use-back.ts'
import '../../../features/auth/auth.css'
import '../../../features/account/account.css'
import { FormSubmit } from '../../../ui/SubmitButton.tsx'

const t = zhCN.account.security
type Field = 'code' | 'password' | 'confirm'

const SecretField = ({ testId, placeholder, value, onChange }: { testId: string; placeholder: string; value: string; onChange: (v: string) => void }) => (
  <label className="field">
    <input data-testid={testId} type="password" inputMode="numeric" autoComplete="new-password" maxLength={SECURITY_CODE_LENGTH}
      placeholder={placeholder} aria-label={placeholder} value={value} onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))} />
  </label>
)

export default function SetSecurityCodeScreen() {
  const call = useCall()
  const back = useBack()
  const phone = useAppStore((s) => s.session.phone ?? s.session.user?.phone ?? '')
  // the bind-phone purpose: the server sends it only to the caller's own number (or a free one)
  const sms = useSmsCode(SmsPurpose.bindPhone)
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [formError, setFormError] = useState('')
  const [submitting, setSubmitting] = useState(false)
  const [alreadySet, setAlreadySet] = useState(false)

  useEffect(() => {
    void call('accountSecurity', {}).then((r) => r.ok && r.data !== false && setAlreadySet(r.data.hasSecondaryPassword))
  }, [call])

  const sendCode = async () => {
    const failed = await sms.send(phone)
    setErrors((e) => ({ ...e, code: failed ?? undefined }))
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const found: Partial<Record<Field, string>> = {
      code: isCode(code) ? undefined : t.codeInvalid,
      password: isSecurityCode(password) ? undefined : t.passwordInvalid,
      confirm: isSecurityCode(password) && confirm !== password ? t.mismatch : undefined,
    }
    setErrors(found)
    setFormError('')
    if (Object.values(found).some(Boolean)) return
    setSubmitting(true)
    try {
      const checked = withData(await call('checkPhoneCode', { code }))
      if (!checked.ok) return setFormError(checked.msg || t.failed)
      const saved = await call('updateUserSecondaryPassword', { ticket: checked.data.ticket, secondaryPassword: password })
      if (!saved.ok) return setFormError(saved.msg || t.failed)
      Toast.show({ content: t.saved })
      await back()
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <Page testId="security-code-page">
      <form className="auth" onSubmit={(e) => void submit(e)} noValidate>
        <h1 className="auth-heading">{t.heading}</h1>
        <p className="auth-hint">{t.explain(maskPhone(phone))}</p>
        {alreadySet && <p className="auth-hint" data-testid="security-already-set">{t.alreadySet}</p>}
        <CodeField testId="security-sms" placeholder={t.codePlaceholder} value={code} onChange={setCode}
          countdown={sms.countdown} sending={sms.sending} onSend={() => void sendCode()} />
        <FieldError text={errors.code} testId="security-sms-error" />
        <SecretField testId="security-password" placeholder={t.passwordPlaceholder} value={password} onChange={setPassword} />
        <FieldError text={errors.password} testId="security-password-error" />
        <SecretField testId="security-confirm" placeholder={t.confirmPlaceholder} value={confirm} onChange={setConfirm} />
        <FieldError text={errors.confirm} testId="security-confirm-error" />
        <FormSubmit error={formError} errorTestId="security-error" testId="security-submit" submitting={submitting} loadingText={t.submitting}>
          {t.submit}
        </FormSubmit>
      </form>
    </Page>
  )
}
