// The state every SMS-code form shares (registration, password reset, phone binding): field errors, the form's
// error line, one submission at a time, and the code's send button with its countdown.
import { useState } from 'react'
import type { SmsPurpose } from '../../../worker/protocol/session.ts'
import { hasErrors, type FieldErrors } from './login-fields.ts'
import { useSmsCode } from './use-sms-code.ts'
import { useSubmission } from './use-submission.ts'

export const useSmsForm = <F extends string>(purpose: SmsPurpose, failedText: string) => {
  const [errors, setErrors] = useState<FieldErrors<F | 'phone'>>({})
  const [formError, setFormError] = useState('')
  const { submitting, run } = useSubmission(() => setFormError(failedText))
  const sms = useSmsCode(purpose)

  /** Sends the code to `phone`; a refusal shows under the phone field. */
  const sendCode = async (phone: string) => {
    const failed = await sms.send(phone)
    setErrors((e) => ({ ...e, phone: failed ?? undefined }))
  }

  /** Shows the field errors found; when there are none, runs the step (its failure text goes to setFormError). */
  const validateAndRun = async (found: FieldErrors<F | 'phone'>, step: () => Promise<unknown>) => {
    setErrors(found)
    setFormError('')
    if (hasErrors(found)) return
    await run(step)
  }

  return { errors, formError, setFormError, submitting, sms, sendCode, validateAndRun }
}
