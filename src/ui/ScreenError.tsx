// The error view of a screen that failed or timed out loading (§8), with a retry that loads it again. Plain markup
// rather than antd-mobile's ErrorBlock, whose inline illustrations would weigh on the JS loaded before login.
import { Button } from 'antd-mobile'
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router'
import { zhCN } from '../i18n/zh-CN.ts'
import { ScreenLoadTimeout } from '../router/lazy-screen.ts'

const messageFor = (error: unknown): string =>
  error instanceof ScreenLoadTimeout
    ? error.kind === 'chunk'
      ? zhCN.screen.chunkTimeout
      : zhCN.screen.loadTimeout
    : zhCN.screen.loadFailed

export const ScreenError = ({ error, reset }: ErrorComponentProps) => {
  const router = useRouter()
  return (
    <div className="center-state" data-testid="screen-error">
      <h2>{messageFor(error)}</h2>
      <Button
        color="primary"
        fill="outline"
        onClick={() => {
          reset()
          void router.invalidate()
        }}
      >
        {zhCN.app.retry}
      </Button>
    </div>
  )
}
