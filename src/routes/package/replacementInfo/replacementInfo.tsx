// /package/replacementInfo/replacementInfo: owned by the devices screens; this stand-in only keeps the route buildable until that screen lands.
import { zhCN } from '../../../i18n/zh-CN.ts'
import { ComingSoon } from '../../../ui/ComingSoon.tsx'

export default function Screen() {
  return <ComingSoon name={zhCN.screens.replacementInfo} />
}
