// /package/setUp/setUp: settings. Personal info, security code, the user agreement, online service, the version,
// and logout after a confirmation (visit log 2, then the exit action, in the core).
import { useNavigate } from '@tanstack/react-router'
import { Button, List, Toast } from 'antd-mobile'
import { downloadJson } from '../../../features/account/download-json.ts'
import { HEADER_VERSION_NAME } from '../../../../worker/protocol/constants.ts'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { Page } from '../../../ui/Page.tsx'
import { useConfirm } from '../../../ui/use-confirm.ts'
import '../../../features/account/account.css'
import { PATHS, type RoutePath } from '../../../router/paths.ts'

const t = zhCN.account.settings

export default function SettingsScreen() {
  const { api } = useCore()
  const navigate = useNavigate()
  const confirm = useConfirm()
  const go = (to: RoutePath) => void navigate({ to })

  const exportLog = async () => {
    const log = await api.exportLog().catch(() => null)
    if (log === null) return void Toast.show({ content: t.exportLogFailed })
    downloadJson(`cloud-phone-log-${new Date(log.exportedAt).toISOString().replace(/[:.]/g, '-')}.json`, log)
    Toast.show({ content: t.exportLogDone })
  }

  const logout = async () => {
    if (await confirm({ title: t.logoutTitle, content: t.logoutConfirm })) await api.logout()
  }

  return (
    <Page testId="settings-page">
      <div className="ac-body">
        <List className="ac-list">
          <List.Item data-testid="settings-personal" onClick={() => go(PATHS.personalInfo)}>{t.personalInfo}</List.Item>
          <List.Item data-testid="settings-security" onClick={() => go(PATHS.setSecurityCode)}>{t.securityCode}</List.Item>
          <List.Item data-testid="settings-agreement" onClick={() => go(PATHS.agreemen)}>{t.agreement}</List.Item>
          <List.Item data-testid="settings-service" onClick={() => go(PATHS.onlineService)}>{t.onlineService}</List.Item>
          <List.Item data-testid="settings-version" extra={HEADER_VERSION_NAME}>{t.version}</List.Item>
          <List.Item data-testid="settings-export-log" description={t.exportLogHint} onClick={() => void exportLog()}>{t.exportLog}</List.Item>
        </List>
        <Button className="ac-logout" block size="large" shape="rounded" color="danger" fill="outline" data-testid="settings-logout"
          onClick={() => void logout()}>
          {t.logout}
        </Button>
      </div>
    </Page>
  )
}
