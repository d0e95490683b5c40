// One form submission at a time: `submitting` while the step runs; an unexpected failure (the core unreachable)
// becomes the form's error message instead of an unhandled rejection.
import { useState } from 'react'

export const useSubmission = (onUnexpected: () => void) => {
  const [submitting, setSubmitting] = useState(false)
  const run = async (step: () => Promise<unknown>): Promise<void> => {
    setSubmitting(true)
    try {
      await step()
    } catch {
      onUnexpected()
    } finally {
      setSubmitting(false)
    }
  }
  return { submitting, run }
}
