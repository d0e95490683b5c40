// /open-location: built-in placeholder page showing the coordinates of the `latitude` / `longitude` query.
import { getRouteApi } from '@tanstack/react-router'
import { zhCN } from '../i18n/zh-CN.ts'
import { Page } from '../ui/Page.tsx'
import { PATHS } from '../router/paths.ts'

const route = getRouteApi(PATHS.openLocation)

export default function OpenLocation() {
  const search = route.useSearch()
  const { latitude, longitude, name } = search
  return (
    <Page testId="open-location">
      <div className="center-state">
        <h2>{name || zhCN.placeholder.openLocation}</h2>
        <p>{latitude && longitude ? zhCN.placeholder.openLocationText(latitude, longitude) : zhCN.placeholder.openLocationEmpty}</p>
      </div>
    </Page>
  )
}
