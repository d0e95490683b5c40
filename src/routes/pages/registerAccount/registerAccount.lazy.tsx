// /pages/registerAccount/registerAccount: phone, SMS code, password twice, invitation code (prefilled from
// invitationUserName); registered and logged in at once, then home. Closed while getPasswordRegisterSwitch is off.
import { Toast } from 'antd-mobile'
import { getRouteApi, Link } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { SmsPurpose } from '../../../../worker/protocol/session.ts'
import { INVITE_CODE_MAX } from '../../../../worker/protocol/validators.ts'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { codeError, confirmError, inviteCodeError, passwordError } from '../../../features/auth/auth-form.ts'
import { phoneError, type FieldErrors } from '../../../features/auth/login-fields.ts'
import { useEnterHome } from '../../../features/auth/enter-home.ts'
import { CodeField, FieldError, PasswordField, PhoneField, TextField } from '../../../features/auth/fields.tsx'
import { useSmsForm } from '../../../features/auth/use-sms-form.ts'
import { usePasswordRegisterSwitch } from '../../../features/auth/use-register-switch.ts'
import { REGISTER_CLOSED } from '../../../../worker/protocol/register-switch.ts'
import { PATHS } from '../../../router/paths.ts'
import { Page } from '../../../ui/Page.tsx'
import { FormSubmit } from '../../../ui/SubmitButton.tsx'

const route = getRouteApi(PATHS.registerAccount)

const t = zhCN.auth

type Field = 'phone' | 'code' | 'password' | 'confirm' | 'inviteCode'

export default function RegisterScreen() {
  const { api } = useCore()
  const enterHome = useEnterHome()
  const registerOn = usePasswordRegisterSwitch()
  const search = route.useSearch()
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [inviteCode, setInviteCode] = useState(search.invitationUserName ?? '')
  const { errors, formError, setFormError, submitting, sms, sendCode, validateAndRun } = useSmsForm<Field>(SmsPurpose.register, t.failed)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const found: FieldErrors<Field> = {
      phone: phoneError(phone), code: codeError(code), password: passwordError(password),
      confirm: confirmError(password, confirm), inviteCode: inviteCodeError(inviteCode),
    }
    await validateAndRun(found, async () => {
      const result = await api.loginWithCode({ phone, code, password, inviteCode })
      if (!result.ok) return setFormError(result.msg || t.failed)
      Toast.show({ content: t.registered })
      await enterHome(result.seq)
    })
  }

  if (registerOn === false) {
    return (
      <Page testId="register-page">
        <div className="auth" data-testid="register-closed">
          <h1 className="auth-heading">{t.registerHeading}</h1>
          <p className="auth-hint">{REGISTER_CLOSED}</p>
          <nav className="auth-links">
            <Link to={PATHS.quickLogin} search={search.invitationUserName ? { invitationUserName: search.invitationUserName } : {}} replace>
              {zhCN.login.quickLogin}
            </Link>
          </nav>
        </div>
      </Page>
    )
  }
  return (
    <Page testId="register-page">
      <form className="auth" onSubmit={(e) => void submit(e)} noValidate>
        <h1 className="auth-heading">{t.registerHeading}</h1>
        <PhoneField testId="register-phone" placeholder={zhCN.login.phonePlaceholder} value={phone} onChange={setPhone} />
        <FieldError text={errors.phone} />
        <CodeField testId="register-code" placeholder={t.codePlaceholder} value={code} onChange={setCode}
          countdown={sms.countdown} sending={sms.sending} onSend={() => void sendCode(phone)} />
        <FieldError text={errors.code} />
        <PasswordField testId="register-password" placeholder={t.passwordPlaceholder} value={password} onChange={setPassword} />
        <FieldError text={errors.password} />
        <PasswordField testId="register-confirm" placeholder={t.confirmPlaceholder} value={confirm} onChange={setConfirm} />
        <FieldError text={errors.confirm} />
        <TextField testId="register-invite" placeholder={t.inviteCodePlaceholder} value={inviteCode} onChange={setInviteCode}
          maxLength={Math.max(INVITE_CODE_MAX, inviteCode.length)} />
        <FieldError text={errors.inviteCode} />
        <FormSubmit error={formError} errorTestId="register-error" testId="register-submit" submitting={submitting} loadingText={t.registering}>
          {t.register}
        </FormSubmit>
        <nav className="auth-links">
          <Link to={PATHS.login} search={search.invitationUserName ? { invitationUserName: search.invitationUserName } : {}} replace>
            {t.haveAccount}
          </Link>
        </nav>
        <p className="auth-agreement">
          {t.agreementPrefix(t.register)}
          <Link to={PATHS.agreemen} data-testid="register-agreement">{t.agreement}</Link>
        </p>
      </form>
    </Page>
  )
}
