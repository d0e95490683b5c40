// The large rounded submit button of the form screens, showing its loading text while the form is being sent.
import { Button } from 'antd-mobile'
import type { ReactNode } from 'react'

export const SubmitButton = ({ testId, submitting, loadingText, children }: {
  testId: string
  submitting: boolean
  loadingText: string
  children: ReactNode
}) => (
  <Button data-testid={testId} type="submit" color="primary" block size="large" shape="rounded" loading={submitting} loadingText={loadingText}>
    {children}
  </Button>
)
