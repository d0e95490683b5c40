// /pages/forgotPassword/forgotPassword: phone, SMS code, new password twice; the server replaces the password and
// ends the account's sessions, then the user logs in again.
import { Toast } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { SmsPurpose } from '../../../../worker/protocol/session.ts'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { codeError, confirmError, passwordError } from '../../../features/auth/auth-form.ts'
import { phoneError, type FieldErrors } from '../../../features/auth/login-fields.ts'
import { CodeField, FieldError, PasswordField, PhoneField } from '../../../features/auth/fields.tsx'
import { useSmsForm } from '../../../features/auth/use-sms-form.ts'
import { PATHS } from '../../../router/paths.ts'
import { Page } from '../../../ui/Page.tsx'
import { FormSubmit } from '../../../ui/SubmitButton.tsx'

const t = zhCN.auth

type Field = 'phone' | 'code' | 'password' | 'confirm'

export default function ForgotPasswordScreen() {
  const { api } = useCore()
  const navigate = useNavigate()
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const { errors, formError, setFormError, submitting, sms, sendCode, validateAndRun } = useSmsForm<Field>(SmsPurpose.forgotPassword, t.failed)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const found: FieldErrors<Field> = {
      phone: phoneError(phone), code: codeError(code), password: passwordError(password), confirm: confirmError(password, confirm),
    }
    await validateAndRun(found, async () => {
      // the new password goes to the core as typed: it encrypts it (the crypto never runs in a tab)
      const result = await api.resetPassword({ phone, code, password })
      if (!result.ok) return setFormError(result.msg || t.failed)
      Toast.show({ content: t.resetDone })
      await navigate({ to: PATHS.login, replace: true })
    })
  }

  return (
    <Page testId="forgot-password-page">
      <form className="auth" onSubmit={(e) => void submit(e)} noValidate>
        <h1 className="auth-heading">{t.forgotHeading}</h1>
        <p className="auth-hint">{t.forgotHint}</p>
        <PhoneField testId="forgot-phone" placeholder={zhCN.login.phonePlaceholder} value={phone} onChange={setPhone} />
        <FieldError text={errors.phone} />
        <CodeField testId="forgot-code" placeholder={t.codePlaceholder} value={code} onChange={setCode}
          countdown={sms.countdown} sending={sms.sending} onSend={() => void sendCode(phone)} />
        <FieldError text={errors.code} />
        <PasswordField testId="forgot-password" placeholder={t.newPasswordPlaceholder} value={password} onChange={setPassword} />
        <FieldError text={errors.password} />
        <PasswordField testId="forgot-confirm" placeholder={t.confirmPlaceholder} value={confirm} onChange={setConfirm} />
        <FieldError text={errors.confirm} />
        <FormSubmit error={formError} errorTestId="forgot-error" testId="forgot-submit" submitting={submitting} loadingText={t.resetting}>
          {t.resetSubmit}
        </FormSubmit>
      </form>
    </Page>
  )
}
