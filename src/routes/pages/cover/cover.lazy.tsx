// /pages/cover/cover: shown inside WeChat / QQ in-app browsers, where the app asks to be opened in a browser (§5).
// Under the custom navigation bar like every screen (§1), without a back: every route leads here in such a browser.
import { DEFAULT_PHONE_IMAGE_URL } from '../../../../worker/protocol/constants.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { Page } from '../../../ui/Page.tsx'

export default function CoverScreen() {
  return (
    <Page back={false} testId="cover-page">
      <div className="center-state">
        <img src={DEFAULT_PHONE_IMAGE_URL} alt="" width={72} />
        <h2>{zhCN.cover.title}</h2>
        <p>{zhCN.cover.explain}</p>
      </div>
    </Page>
  )
}
