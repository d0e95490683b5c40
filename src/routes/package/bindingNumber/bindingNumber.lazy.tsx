// /package/bindingNumber/bindingNumber: where the guard holds an account that must bind a phone (§5). Phone, SMS code,
// bind; then the core refreshes the session so every tab's guard lets the user go, and this tab goes home.
import { Toast } from 'antd-mobile'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { SmsPurpose } from '../../../../worker/protocol/session.ts'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { codeError } from '../../../features/auth/auth-form.ts'
import { phoneError, type FieldErrors } from '../../../features/auth/login-fields.ts'
import { useEnterHome } from '../../../features/auth/enter-home.ts'
import { CodeField, FieldError, PhoneField } from '../../../features/auth/fields.tsx'
import { useSmsForm } from '../../../features/auth/use-sms-form.ts'
import { mustBindPhone } from '../../../router/guard.ts'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'
import { useConfirm } from '../../../ui/use-confirm.ts'
import { FormSubmit } from '../../../ui/SubmitButton.tsx'

const t = zhCN.bindPhone

export default function BindPhoneScreen() {
  const { api } = useCore()
  const confirm = useConfirm()
  const enterHome = useEnterHome()
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('')
  const { errors, formError, setFormError, submitting, sms, sendCode, validateAndRun } = useSmsForm<'phone' | 'code'>(SmsPurpose.bindPhone, t.failed)
  const released = useAppStore((s) => s.session.loggedIn && !mustBindPhone(s.session))
  const wasForced = useRef(!released)

  // bound in this tab or in another one: the session event releases every tab the guard held here (a logout is not
  // a release: the exit action takes the tab to login)
  useEffect(() => {
    if (wasForced.current && released) void enterHome()
  }, [released, enterHome])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const found = { phone: phoneError(phone), code: codeError(code) }
    await validateAndRun(found, async () => {
      const result = await api.call('updateUserPhone', { phone, code })
      if (!result.ok) return setFormError(result.msg || t.failed)
      const refreshed = await api.refreshSession()
      if (!refreshed.ok) return setFormError(refreshed.msg || t.failed)
      Toast.show({ content: t.bound })
      await enterHome()
    })
  }

  const logout = async () => {
    const confirmed = await confirm({ title: zhCN.home.logoutConfirmTitle, content: zhCN.home.logoutConfirm })
    if (confirmed) await api.logout()
  }

  return (
    <Page back={!wasForced.current} testId="bind-phone-page">
      <form className="auth" onSubmit={(e) => void submit(e)} noValidate>
        <h1 className="auth-heading">{t.title}</h1>
        <p className="auth-hint">{t.explain}</p>
        <PhoneField testId="bind-phone" placeholder={t.phonePlaceholder} value={phone} onChange={setPhone} />
        <FieldError text={errors.phone} />
        <CodeField testId="bind-code" placeholder={t.codePlaceholder} value={code} onChange={setCode}
          countdown={sms.countdown} sending={sms.sending} onSend={() => void sendCode(phone)} />
        <FieldError text={errors.code} />
        <FormSubmit error={formError} errorTestId="bind-error" testId="bind-submit" submitting={submitting} loadingText={t.submitting}>
          {t.submit}
        </FormSubmit>
        <div className="auth-actions">
          <button type="button" className="auth-link" data-testid="logout" onClick={() => void logout()}>{t.logout}</button>
        </div>
      </form>
    </Page>
  )
}
