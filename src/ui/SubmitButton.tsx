// The large rounded submit button of the form screens, showing its loading text while the form is being sent, and the
// end every form screen shares: the form's own error line (an alert, empty when there is none) above that button.
import { Button } from 'antd-mobile'
import type { ReactNode } from 'react'

interface SubmitProps {
  testId: string
  submitting: boolean
  loadingText: string
  children: ReactNode
}

export const SubmitButton = ({ testId, submitting, loadingText, children }: SubmitProps) => (
  <Button data-testid={testId} type="submit" color="primary" block size="large" shape="rounded" loading={submitting} loadingText={loadingText}>
    {children}
  </Button>
)

export const FormSubmit = ({ error, errorTestId, ...submit }: SubmitProps & { error: string; errorTestId: string }) => (
  <>
    <div className="form-error" role="alert" data-testid={errorTestId}>{error}</div>
    <SubmitButton {...submit} />
  </>
)
