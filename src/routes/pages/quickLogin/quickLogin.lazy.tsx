// /pages/quickLogin/quickLogin: step one of the SMS login; sends the code, then the code is entered on
// /pages/verificationCode/verificationCode (the phone and any invitation travel as query).
import { Button } from 'antd-mobile'
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { SmsPurpose } from '../../../../worker/protocol/session.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { FieldError, PhoneField } from '../../../features/auth/fields.tsx'
import { useSmsCode } from '../../../features/auth/use-sms-code.ts'
import { PATHS } from '../../../router/paths.ts'
import { Page } from '../../../ui/Page.tsx'

const route = getRouteApi(PATHS.quickLogin)

const t = zhCN.auth

export default function QuickLoginScreen() {
  const navigate = useNavigate()
  const search = route.useSearch()
  const invitationUserName = search.invitationUserName || null
  const [phone, setPhone] = useState(search.phone ?? '')
  const [error, setError] = useState<string>()
  const sms = useSmsCode(SmsPurpose.quickLogin)
  const invitation = invitationUserName ? { invitationUserName } : {}

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setError(undefined)
    const failed = await sms.send(phone)
    if (failed !== null) return setError(failed)
    await navigate({ to: PATHS.verificationCode, search: { phone, ...invitation } })
  }

  return (
    <Page testId="quick-login-page">
      <form className="auth" onSubmit={(e) => void submit(e)} noValidate>
        <h1 className="auth-heading">{t.quickHeading}</h1>
        <p className="auth-hint">{t.quickHint}</p>
        {invitationUserName && <p className="auth-invite" data-testid="quick-login-invitation">{zhCN.login.invitedBy(invitationUserName)}</p>}
        <PhoneField testId="quick-login-phone" placeholder={zhCN.login.phonePlaceholder} value={phone} onChange={setPhone} />
        <FieldError testId="quick-login-error" text={error} />
        <Button
          data-testid="quick-login-send" type="submit" color="primary" block size="large" shape="rounded"
          loading={sms.sending} loadingText={t.sending} disabled={sms.countdown.disabled}
        >
          {sms.countdown.disabled ? sms.countdown.text : t.getCode}
        </Button>
        <nav className="auth-links">
          <Link to={PATHS.login} search={invitation} replace data-testid="quick-login-password">{t.passwordLogin}</Link>
          <Link to={PATHS.registerAccount} search={invitation}>{zhCN.login.register}</Link>
        </nav>
        <p className="auth-agreement">
          {t.agreementPrefix(zhCN.login.submit)}
          <Link to={PATHS.agreemen}>{t.agreement}</Link>
        </p>
      </form>
    </Page>
  )
}
