// What a screen shows where its list or card could not be loaded: what failed, the server's reason when it gave one,
// and a retry that asks again (showing it is loading while `retrying`).
import { Button, ErrorBlock } from 'antd-mobile'
import { zhCN } from '../i18n/zh-CN.ts'

export const LoadFailed = ({ title, message, onRetry, testId, retrying = false }: {
  title: string
  message: string
  onRetry: () => Promise<void>
  testId: string
  retrying?: boolean
}) => (
  <ErrorBlock status="default" title={title} description={message === title ? '' : message} data-testid={testId}>
    <Button color="primary" fill="outline" loading={retrying} onClick={() => void onRetry()}>{zhCN.app.retry}</Button>
  </ErrorBlock>
)
