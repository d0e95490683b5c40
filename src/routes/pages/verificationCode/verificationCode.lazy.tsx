// /pages/verificationCode/verificationCode?phone=: step two of the SMS login; six digits, resend with the countdown,
// then logged in like a password login and sent home.
import { getRouteApi, Navigate, useNavigate } from '@tanstack/react-router'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { CODE_LENGTH } from '../../../../worker/protocol/constants.ts'
import { SmsPurpose } from '../../../../worker/protocol/session.ts'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { cleanCode, codeError } from '../../../features/auth/auth-form.ts'
import { useEnterHome } from '../../../features/auth/enter-home.ts'
import { FieldError } from '../../../features/auth/fields.tsx'
import { useSmsCode } from '../../../features/auth/use-sms-code.ts'
import { isMobile } from '../../../../worker/protocol/validators.ts'
import { maskPhone } from '../../../lib/validators.ts'
import { Page } from '../../../ui/Page.tsx'
import '../../../features/auth/auth.css'
import { PATHS } from '../../../router/paths.ts'
import { SubmitButton } from '../../../ui/SubmitButton.tsx'

const route = getRouteApi(PATHS.verificationCode)

const t = zhCN.auth

export default function VerificationCodeScreen() {
  const search = route.useSearch()
  const phone = search.phone ?? ''
  if (!isMobile(phone)) return <Navigate to={PATHS.quickLogin} replace />
  return <CodeEntry phone={phone} invitationUserName={search.invitationUserName || null} />
}

const CodeEntry = ({ phone, invitationUserName }: { phone: string; invitationUserName: string | null }) => {
  const { api } = useCore()
  const navigate = useNavigate()
  const enterHome = useEnterHome()
  const sms = useSmsCode(SmsPurpose.quickLogin)
  const [code, setCode] = useState('')
  const [error, setError] = useState<string>()
  const [submitting, setSubmitting] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const { start } = sms.countdown

  // the code was sent by the previous step just now: its resend countdown is already running
  useEffect(() => start(), [start])

  const login = async (value: string) => {
    const invalid = codeError(value)
    setError(invalid)
    if (invalid || submitting) return
    setSubmitting(true)
    try {
      const result = await api.loginWithCode({ phone, code: value, inviteCode: invitationUserName })
      if (!result.ok) {
        setError(result.msg || t.failed)
        setCode('')
        return
      }
      await enterHome(result.seq)
    } catch {
      setError(t.failed)
    } finally {
      setSubmitting(false)
    }
  }

  const change = (raw: string) => {
    const value = cleanCode(raw)
    setCode(value)
    setError(undefined)
    if (value.length === CODE_LENGTH) void login(value)
  }

  const resend = async () => {
    setError((await sms.send(phone)) ?? undefined)
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    void login(code)
  }

  return (
    <Page testId="verify-code-page">
      <form className="auth" onSubmit={submit} noValidate>
        <h1 className="auth-heading">{t.codeHeading}</h1>
        <p className="auth-hint" data-testid="verify-code-phone">{t.codeSentTo(maskPhone(phone))}</p>
        <div className="code-boxes" onClick={() => input.current?.focus()}>
          {Array.from({ length: CODE_LENGTH }, (_, i) => (
            <span key={i} className={`code-box${i === Math.min(code.length, CODE_LENGTH - 1) ? ' active' : ''}`}>{code[i] ?? ''}</span>
          ))}
          <input
            ref={input} data-testid="verify-code-input" type="text" inputMode="numeric" autoComplete="one-time-code"
            maxLength={CODE_LENGTH} autoFocus aria-label={t.codePlaceholder} value={code} onChange={(e) => change(e.target.value)}
          />
        </div>
        <FieldError testId="verify-code-error" text={error} />
        <div className="code-resend">
          <button type="button" className="auth-link" data-testid="verify-code-change-phone"
            onClick={() => void navigate({ to: PATHS.quickLogin, search: { phone, ...(invitationUserName ? { invitationUserName } : {}) }, replace: true })}>
            {t.changePhone}
          </button>
          <button type="button" className="code-button" data-testid="verify-code-resend"
            disabled={sms.countdown.disabled || sms.sending} onClick={() => void resend()}>
            {sms.sending ? t.sending : sms.countdown.text}
          </button>
        </div>
        <SubmitButton testId="verify-code-submit" submitting={submitting} loadingText={t.loggingIn}>
          {t.codeLogin}
        </SubmitButton>
      </form>
    </Page>
  )
}
