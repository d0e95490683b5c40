// /package/bindingNumber/bindingNumber: where the guard holds an account that must bind a phone (§5), with logout.
import { Button } from 'antd-mobile'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { Page } from '../../../ui/Page.tsx'
import { useConfirm } from '../../../ui/use-confirm.ts'

const t = zhCN.bindPhone

export default function BindPhoneScreen() {
  const { api } = useCore()
  const confirm = useConfirm()
  const logout = async () => {
    const confirmed = await confirm({ title: zhCN.home.logoutConfirmTitle, content: zhCN.home.logoutConfirm })
    if (confirmed) await api.logout()
  }
  return (
    <Page back={false} testId="bind-phone-page">
      <div className="center-state">
        <h2>{t.title}</h2>
        <p>{t.explain}</p>
        <p>{zhCN.comingSoon.text}</p>
        <Button color="primary" fill="outline" data-testid="logout" onClick={() => void logout()}>
          {t.logout}
        </Button>
      </div>
    </Page>
  )
}
