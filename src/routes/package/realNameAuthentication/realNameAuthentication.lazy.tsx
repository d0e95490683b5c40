// /package/realNameAuthentication/realNameAuthentication: name and ID card (GB 11643 checksum, checked here and on
// the server); once verified, the masked identity the server kept.
import { Skeleton, Toast } from 'antd-mobile'
import { CheckCircleFill } from 'antd-mobile-icons'
import { useEffect, useState, type FormEvent } from 'react'
import type { AccountSecurity } from '../../../../worker/protocol/account.ts'
import { FieldError } from '../../../features/auth/fields.tsx'
import { useCall, withData } from '../../../core/use-call.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { isIdCard, isRealName } from '../../../../worker/protocol/validators.ts'
import { Page } from '../../../ui/Page.tsx'
import '../../../ui/form.css'
import '../../../features/auth/auth.css'
import '../../../features/account/account.css'
import { FormSubmit } from '../../../ui/SubmitButton.tsx'

const t = zhCN.account.realName

export default function RealNameScreen() {
  const call = useCall()
  const [state, setState] = useState<AccountSecurity | null>(null)
  const [name, setName] = useState('')
  const [idCard, setIdCard] = useState('')
  const [errors, setErrors] = useState<{ name?: string | undefined; id?: string | undefined }>({})
  const [formError, setFormError] = useState('')
  const [submitting, setSubmitting] = useState(false)

  useEffect(() => {
    void call('accountSecurity', {}).then(withData).then((r) => {
      if (r.ok) setState(r.data)
      else setState({ verified: false, realName: null, idCard: null, hasSecondaryPassword: false })
    })
  }, [call])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const found = { name: isRealName(name) ? undefined : t.nameInvalid, id: isIdCard(idCard) ? undefined : t.idInvalid }
    setErrors(found)
    setFormError('')
    if (found.name || found.id) return
    setSubmitting(true)
    try {
      const r = withData(await call('identityVerification', { realName: name, idCard }))
      if (!r.ok) return setFormError(r.msg || t.failed)
      Toast.show({ content: t.done })
      setState(r.data)
    } finally {
      setSubmitting(false)
    }
  }

  if (state === null) {
    return <Page testId="real-name-page"><div className="ac-body"><Skeleton.Paragraph lineCount={5} animated /></div></Page>
  }
  if (state.verified) {
    return (
      <Page testId="real-name-page">
        <div className="ac-body">
          <div className="ac-card ac-verified" data-testid="real-name-verified">
            <CheckCircleFill className="ac-verified-icon" />
            <div className="ac-heading">{t.verifiedTitle}</div>
            <dl>
              <dt>{t.name}</dt><dd data-testid="real-name-masked">{state.realName}</dd>
              <dt>{t.idCard}</dt><dd data-testid="real-name-id-masked">{state.idCard}</dd>
            </dl>
          </div>
        </div>
      </Page>
    )
  }
  return (
    <Page testId="real-name-page">
      <form className="auth" onSubmit={(e) => void submit(e)} noValidate>
        <h1 className="auth-heading">{t.heading}</h1>
        <p className="auth-hint">{t.explain}</p>
        <label className="field">
          <input data-testid="real-name-name" type="text" autoComplete="name" maxLength={20} placeholder={t.namePlaceholder}
            aria-label={t.namePlaceholder} value={name} onChange={(e) => setName(e.target.value.trim())} />
        </label>
        <FieldError text={errors.name} testId="real-name-name-error" />
        <label className="field">
          <input data-testid="real-name-id" type="text" autoComplete="off" maxLength={18} placeholder={t.idPlaceholder}
            aria-label={t.idPlaceholder} value={idCard} onChange={(e) => setIdCard(e.target.value.replace(/\s/g, '').toUpperCase())} />
        </label>
        <FieldError text={errors.id} testId="real-name-id-error" />
        <FormSubmit error={formError} errorTestId="real-name-error" testId="real-name-submit" submitting={submitting} loadingText={t.submitting}>
          {t.submit}
        </FormSubmit>
      </form>
    </Page>
  )
}
