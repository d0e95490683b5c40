// The home's view of a device list that could not be loaded and is not stored either: what failed, the reason, and a
// retry (while it asks again, the retry shows it is loading).
import { Button, ErrorBlock } from 'antd-mobile'
import { zhCN } from '../../../../i18n/zh-CN.ts'
import { useAppStore } from '../../../../store/index.ts'

const HomeLoadFailed = ({ error, onRetry }: { error: string; onRetry: () => void }) => {
  const retrying = useAppStore((s) => s.devices.loading)
  return (
    <div className="center-state" data-testid="home-error">
      <ErrorBlock status="default" title={zhCN.home.loadFailed} description={error} />
      <Button color="primary" fill="outline" loading={retrying} onClick={onRetry}>
        {zhCN.app.retry}
      </Button>
    </div>
  )
}

export default HomeLoadFailed
