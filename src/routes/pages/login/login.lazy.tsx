// /pages/login/login: phone + password login; keeps invitationUserName from a share link and passes it on.
import { FormSubmit } from '../../../ui/SubmitButton.tsx'
import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons'
import { getRouteApi, Link } from '@tanstack/react-router'
import { useEffect, useState, type FormEvent } from 'react'
import { useCore } from '../../../core-context.tsx'
import { usePasswordRegisterSwitch } from '../../../features/auth/use-register-switch.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { hasErrors, validateLogin, type FieldErrors } from '../../../features/auth/login-fields.ts'
import { useEnterHome } from '../../../features/auth/enter-home.ts'
import { storeIntended } from '../../../router/intended.ts'
import { Page } from '../../../ui/Page.tsx'
import '../../../ui/form.css'
import './login.css'
import { PATHS } from '../../../router/paths.ts'

const route = getRouteApi(PATHS.login)

const t = zhCN.login

export default function LoginScreen() {
  const { api } = useCore()
  const enterHome = useEnterHome()
  const registerOn = usePasswordRegisterSwitch()
  const search = route.useSearch()
  const invitationUserName = search.invitationUserName || null
  const [phone, setPhone] = useState('')
  const [password, setPassword] = useState('')
  const [showPassword, setShowPassword] = useState(false)
  const [errors, setErrors] = useState<FieldErrors<'phone' | 'password'>>({})
  const [formError, setFormError] = useState('')
  const [submitting, setSubmitting] = useState(false)

  // a visitor turned away from a protected screen returns there after signing in
  useEffect(() => {
    void storeIntended(api)
  }, [api])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const found = validateLogin(phone.trim(), password)
    setErrors(found)
    setFormError('')
    if (hasErrors(found)) return
    setSubmitting(true)
    try {
      const result = await api.login({ phone: phone.trim(), password, invitationUserName })
      if (!result.ok) {
        setFormError(result.msg || t.failed)
        return
      }
      await enterHome(result.seq)
    } catch {
      // the core unreachable: shown inline, so the first screen does not need the toast's animation chunk
      setFormError(t.failed)
    } finally {
      setSubmitting(false)
    }
  }

  const invitation = invitationUserName ? { invitationUserName } : {}
  return (
    <Page back={false} testId="login-page">
      <form className="login" onSubmit={(e) => void submit(e)} noValidate>
        <h1 className="login-heading">{t.heading}</h1>
        {invitationUserName && (
          <p className="login-invite" data-testid="login-invitation">
            {t.invitedBy(invitationUserName)}
          </p>
        )}
        <label className="field">
          <input
            data-testid="login-phone"
            type="tel"
            inputMode="numeric"
            autoComplete="username"
            maxLength={11}
            placeholder={t.phonePlaceholder}
            aria-label={t.phonePlaceholder}
            value={phone}
            onChange={(e) => setPhone(e.target.value.replace(/\s/g, ''))}
          />
        </label>
        <div className="field-error" role="alert">{errors.phone}</div>
        <label className="field">
          <input
            data-testid="login-password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            placeholder={t.passwordPlaceholder}
            aria-label={t.passwordPlaceholder}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <button
            type="button"
            className="field-icon"
            data-testid="login-password-toggle"
            aria-label={showPassword ? t.hidePassword : t.showPassword}
            onClick={() => setShowPassword((v) => !v)}
          >
            {showPassword ? <EyeOutline /> : <EyeInvisibleOutline />}
          </button>
        </label>
        <div className="field-error" role="alert">{errors.password}</div>
        <FormSubmit error={formError} errorTestId="login-error" testId="login-submit" submitting={submitting} loadingText={t.submitting}>
          {t.submit}
        </FormSubmit>
        <nav className="login-links">
          <Link to={PATHS.quickLogin} search={invitation}>{t.quickLogin}</Link>
          {registerOn !== false && <Link to={PATHS.registerAccount} search={invitation} data-testid="login-register">{t.register}</Link>}
          <Link to={PATHS.forgotPassword}>{t.forgotPassword}</Link>
        </nav>
        <p className="login-agreement">
          {t.agreementPrefix}
          <Link to={PATHS.agreemen} data-testid="login-agreement">{t.agreement}</Link>
        </p>
      </form>
    </Page>
  )
}
