// The home under its bars, inside the pull to refresh: the visitor's invitation, the loading skeletons, the load error,
// the empty state, or the account's phones as a list or a wall. Memoised with plain props: the home re-renders for
// each thing that arrives while it loads (unread notices, ads, the avatar), and a pull to refresh that re-renders
// restarts its spring in a layout effect (~6 ms a commit at 1x on the test VM; issue 24).
import { Button, PullToRefresh, Skeleton } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { lazy, memo, Suspense, type RefObject } from 'react'
import type { Device } from '../../../../../worker/protocol/devices.ts'
import { DEFAULT_PHONE_IMAGE_URL } from '../../../../../worker/protocol/constants.ts'
import { slidingKeyOf } from '../../../../features/devices/home-pieces.tsx'
import { phoneTypeName } from '../../../../features/devices/home-rules.ts'
import { zhCN } from '../../../../i18n/zh-CN.ts'
import { PATHS } from '../../../../router/paths.ts'
import type { AppState } from '../../../../store/app-store.ts'
import { useAppStore } from '../../../../store/index.ts'
import { LoadFailed } from '../../../../ui/LoadFailed.tsx'
import { DeviceRow } from './DeviceRow.tsx'
import type { HomeView } from './ViewBar.tsx'

const t = zhCN.home

// the 宫格 view's wall loads only when chosen
const PhoneWall = lazy(() => import('../../../../features/devices/wall/PhoneWall.tsx').then((m) => ({ default: m.PhoneWall })))

const Skeletons = () => (
  <div className="home-skeleton" data-testid="home-loading">
    {[0, 1, 2, 3].map((i) => (
      <div key={i} className="device-row device-main">
        <Skeleton animated className="device-preview" />
        <div className="device-info">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={1} animated />
        </div>
      </div>
    ))}
  </div>
)

export interface HomeBodyProps {
  readonly loggedIn: boolean
  readonly list: ReadonlyArray<Device>
  readonly fetchedAt: number | null
  readonly error: string | null
  /** signed in and online: a pull refreshes */
  readonly refreshable: boolean
  readonly onRefresh: () => Promise<void>
  readonly view: HomeView
  readonly mealTypes: AppState['mealTypes']
  readonly currentKey: string | null
  readonly listRef: RefObject<HTMLUListElement | null>
  readonly onOpen: (device: Device) => void
  readonly onMore: (device: Device) => void
  readonly wallSelected: ReadonlySet<number>
  readonly onToggleSelect: (userCardId: number) => void
}

export const HomeBody = memo(function HomeBody(props: HomeBodyProps) {
  return (
    <PullToRefresh
      disabled={!props.refreshable}
      onRefresh={props.onRefresh}
      pullingText={t.pullIdle}
      canReleaseText={t.pullCanRelease}
      refreshingText={t.pullRefreshing}
      completeText={t.pullComplete}
    >
      <div className="home-body"><Content {...props} /></div>
    </PullToRefresh>
  )
})

/** The visitor's invitation and the empty list: the default preview, what it is, and the one thing to do. */
const CenterState = ({ testId, title, hint, action, onAction }: {
  testId: string
  title: string
  hint: string
  action: string
  onAction: () => void
}) => (
  <div className="center-state" data-testid={testId}>
    <img className="home-empty-image" src={DEFAULT_PHONE_IMAGE_URL} alt="" />
    <h2>{title}</h2>
    <p>{hint}</p>
    <Button color="primary" shape="rounded" onClick={onAction}>
      {action}
    </Button>
  </div>
)

/** The list that failed with none stored; its retry shows the refresh in flight (the loading flag read here only). */
const ListLoadFailed = ({ error, onRetry }: { error: string; onRetry: () => Promise<void> }) => {
  const retrying = useAppStore((s) => s.devices.loading)
  return <LoadFailed title={t.loadFailed} message={error} onRetry={onRetry} retrying={retrying} testId="home-error" />
}

const Content = ({
  loggedIn, list, fetchedAt, error, onRefresh, view, mealTypes, currentKey, listRef, onOpen, onMore, wallSelected, onToggleSelect,
}: HomeBodyProps) => {
  const navigate = useNavigate()
  if (!loggedIn) {
    return <CenterState testId="home-visitor" title={t.visitorTitle} hint={t.visitorHint} action={t.login} onAction={() => void navigate({ to: PATHS.login })} />
  }
  if (fetchedAt === null && error === null) return <Skeletons />
  if (list.length === 0 && error !== null) {
    return <ListLoadFailed error={error} onRetry={onRefresh} />
  }
  if (list.length === 0) {
    return <CenterState testId="home-empty" title={t.empty} hint={t.emptyHint} action={t.buy} onAction={() => void navigate({ to: PATHS.purchase })} />
  }
  if (view.mode === 'grid') {
    return (
      <Suspense fallback={<Skeletons />}>
        <PhoneWall devices={list} columns={view.columns} currentKey={currentKey} onOpen={onOpen} selected={wallSelected} onToggleSelect={onToggleSelect} />
      </Suspense>
    )
  }
  return (
    <ul ref={listRef} className="device-list" data-testid="device-list" data-fetched-at={fetchedAt ?? undefined} data-current={currentKey ?? undefined}>
      {list.map((device) => (
        <DeviceRow
          key={device.userCardId}
          device={device}
          typeName={phoneTypeName(mealTypes, device.phoneType)}
          selected={slidingKeyOf(device) === currentKey}
          onOpen={onOpen}
          onMore={onMore}
        />
      ))}
    </ul>
  )
}
