// /package/bindingNumber/bindingNumber: where the guard holds an account that must bind a phone (§5). Phone, SMS code,
// bind; then the core refreshes the session so every tab's guard lets the user go, and this tab goes home.
// Changing a phone that is already bound (更换手机号 from personal info) first proves the old phone: an SMS code sent to
// it, checked by checkPhoneCode for a ticket that updateUserPhone spends (issue 22 finding 2); the server then ends
// the account's other sessions.
import { Toast } from 'antd-mobile'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { OwnerProofStatus, SmsPurpose } from '../../../../worker/protocol/session.ts'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { codeError } from '../../../features/auth/auth-form.ts'
import { phoneError, type FieldErrors } from '../../../features/auth/login-fields.ts'
import { useEnterHome } from '../../../features/auth/enter-home.ts'
import { CodeField, FieldError, PhoneField } from '../../../features/auth/fields.tsx'
import { useSmsForm } from '../../../features/auth/use-sms-form.ts'
import { useSmsCode } from '../../../features/auth/use-sms-code.ts'
import { useCall, withData } from '../../../core/use-call.ts'
import { maskPhone } from '../../../lib/validators.ts'
import { mustBindPhone } from '../../../router/guard.ts'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'
import { useConfirm } from '../../../ui/use-confirm.ts'
import { FormSubmit } from '../../../ui/SubmitButton.tsx'

const t = zhCN.bindPhone

export default function BindPhoneScreen() {
  const { api } = useCore()
  const call = useCall()
  const confirm = useConfirm()
  const enterHome = useEnterHome()
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('')
  const { errors, formError, setFormError, submitting, sms, sendCode, validateAndRun } = useSmsForm<'phone' | 'code'>(SmsPurpose.bindPhone, t.failed)
  const released = useAppStore((s) => s.session.loggedIn && !mustBindPhone(s.session))
  const wasForced = useRef(!released)
  const oldPhone = useAppStore((s) => s.session.phone ?? s.session.user?.phone ?? '')
  // a bound phone is changed only with proof of it
  const changing = !wasForced.current && /^\d+$/.test(oldPhone)
  const oldSms = useSmsCode(SmsPurpose.bindPhone)
  const [oldCode, setOldCode] = useState('')
  const [oldCodeError, setOldCodeError] = useState<string | undefined>()
  // the old phone's check gives a ticket once; a retry (a wrong new code) reuses it
  const ticket = useRef<string | null>(null)

  // bound in this tab or in another one: the session event releases every tab the guard held here (a logout is not
  // a release: the exit action takes the tab to login)
  useEffect(() => {
    if (wasForced.current && released) void enterHome(0)
  }, [released, enterHome])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const found = { phone: phoneError(phone), code: codeError(code) }
    const oldError = changing && ticket.current === null ? codeError(oldCode) : undefined
    setOldCodeError(oldError)
    if (oldError) return
    await validateAndRun(found, async () => {
      if (changing && ticket.current === null) {
        const checked = withData(await call('checkPhoneCode', { code: oldCode }))
        if (!checked.ok) return setFormError(checked.msg || t.failed)
        ticket.current = checked.data.ticket
      }
      const result = await api.call('updateUserPhone', changing && ticket.current !== null ? { phone, code, ticket: ticket.current } : { phone, code })
      // a ticket that is no longer good is asked for again (a new code to the old phone); other refusals keep it
      if (!result.ok && (result.status === OwnerProofStatus.required || result.status === OwnerProofStatus.expired)) {
        ticket.current = null
        setOldCode('')
      }
      if (!result.ok) return setFormError(result.msg || t.failed)
      const refreshed = await api.refreshSession()
      if (!refreshed.ok) return setFormError(refreshed.msg || t.failed)
      Toast.show({ content: t.bound })
      await enterHome(refreshed.seq)
    })
  }

  const logout = async () => {
    const confirmed = await confirm({ title: zhCN.home.logoutConfirmTitle, content: zhCN.home.logoutConfirm })
    if (confirmed) await api.logout()
  }

  return (
    <Page back={!wasForced.current} testId="bind-phone-page">
      <form className="auth" onSubmit={(e) => void submit(e)} noValidate>
        <h1 className="auth-heading">{changing ? t.changeTitle : t.title}</h1>
        <p className="auth-hint">{changing ? t.changeExplain(maskPhone(oldPhone)) : t.explain}</p>
        {changing && (
          <>
            <CodeField testId="bind-old-code" placeholder={t.oldCodePlaceholder} value={oldCode} onChange={setOldCode}
              countdown={oldSms.countdown} sending={oldSms.sending}
              onSend={() => void oldSms.send(oldPhone).then((failed) => setOldCodeError(failed ?? undefined))} />
            <FieldError text={oldCodeError} />
          </>
        )}
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
