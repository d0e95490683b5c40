// The loading view a lazy screen shows once it has taken longer than the async delay (§9: 200 ms).
import { SpinLoading } from 'antd-mobile'
import { zhCN } from '../i18n/zh-CN.ts'

export const ScreenLoading = () => (
  <div className="center-state" role="status">
    <SpinLoading color="primary" />
    <p>{zhCN.screen.loading}</p>
  </div>
)
