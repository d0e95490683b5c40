// /choose-location: built-in placeholder page; location picking has no web counterpart, which it says.
import { zhCN } from '../i18n/zh-CN.ts'
import { Page } from '../ui/Page.tsx'

export default function ChooseLocation() {
  return (
    <Page testId="choose-location">
      <div className="center-state">
        <h2>{zhCN.placeholder.chooseLocation}</h2>
        <p>{zhCN.placeholder.chooseLocationText}</p>
      </div>
    </Page>
  )
}
