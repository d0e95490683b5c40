// The loading view a lazy screen shows once it has taken longer than the async delay (§9: 200 ms). A CSS spinner:
// antd-mobile's SpinLoading would pull its animation library into the first-paint bundle.
import { zhCN } from '../i18n/zh-CN.ts'

export const ScreenLoading = () => (
  <div className="center-state" role="status">
    <span className="screen-spinner" aria-hidden="true" />
    <p>{zhCN.screen.loading}</p>
  </div>
)
