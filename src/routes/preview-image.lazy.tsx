// /preview-image: built-in placeholder page showing the image given by the `url` query (or `urls`, comma separated),
// only images of the app's own origin (previewImageUrls).
import { getRouteApi } from '@tanstack/react-router'
import { Image } from 'antd-mobile'
import { zhCN } from '../i18n/zh-CN.ts'
import { previewImageUrls } from '../lib/preview-image.ts'
import { Page } from '../ui/Page.tsx'
import { PATHS } from '../router/paths.ts'

const route = getRouteApi(PATHS.previewImage)

export default function PreviewImage() {
  const search = route.useSearch()
  const urls = previewImageUrls(search, window.location.origin)
  return (
    <Page testId="preview-image">
      <h2 className="placeholder-heading">{zhCN.placeholder.previewImage}</h2>
      {urls.length === 0 ? (
        <div className="center-state"><p>{zhCN.placeholder.previewEmpty}</p></div>
      ) : (
        urls.map((url) => <Image key={url} src={url} fit="contain" style={{ width: '100%', marginBottom: 12 }} />)
      )}
    </Page>
  )
}
