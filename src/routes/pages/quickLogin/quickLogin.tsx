// /pages/quickLogin/quickLogin: not built yet; says so honestly.
import { zhCN } from '../../../i18n/zh-CN.ts'
import { ComingSoon } from '../../../ui/ComingSoon.tsx'

export default function Screen() {
  return <ComingSoon name={zhCN.screens.quickLogin} />
}
