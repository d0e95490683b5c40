// /pages/cover/cover: shown inside WeChat / QQ in-app browsers, where the app asks to be opened in a browser (§5).
import { zhCN } from '../../../i18n/zh-CN.ts'

export default function CoverScreen() {
  return (
    <div className="page" data-testid="cover-page">
      <div className="center-state">
        <img src={`${import.meta.env.BASE_URL}static/default-phone.svg`} alt="" width={72} />
        <h2>{zhCN.cover.title}</h2>
        <p>{zhCN.cover.explain}</p>
      </div>
    </div>
  )
}
