// /pages/index/index (and /): the account's cloud phones from the store, pull to refresh, logout.
import { Button, ErrorBlock, PullToRefresh, Skeleton } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect } from 'react'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { maskPhone } from '../../../lib/validators.ts'
import { LOGIN, PURCHASE } from '../../../router/paths.ts'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'
import { useConfirm } from '../../../ui/use-confirm.ts'
import { DeviceRow } from './-components/DeviceRow.tsx'
import './index.css'

const t = zhCN.home
const VIEWER = '/package/cloudPhoneView/cloudPhoneView'

const Skeletons = () => (
  <div className="home-skeleton" data-testid="home-loading">
    {[0, 1, 2, 3].map((i) => (
      <div key={i} className="device-row">
        <Skeleton animated className="device-preview" />
        <div className="device-info">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={1} animated />
        </div>
      </div>
    ))}
  </div>
)

export default function HomeScreen() {
  const { api } = useCore()
  const confirm = useConfirm()
  const navigate = useNavigate()
  const devices = useAppStore((s) => s.devices)
  const loggedIn = useAppStore((s) => s.session.loggedIn)
  const phone = useAppStore((s) => s.session.phone ?? s.session.user?.phone ?? '')
  const refresh = useCallback(async () => {
    await api.refreshDevices()
  }, [api])

  useEffect(() => {
    if (loggedIn) void refresh()
  }, [refresh, loggedIn])

  const logout = async () => {
    const confirmed = await confirm({ title: t.logoutConfirmTitle, content: t.logoutConfirm })
    if (confirmed) await api.logout()
  }

  const openDevice = useCallback(
    (userCardId: number) => void navigate({ to: VIEWER, search: { userCardId: String(userCardId) } }),
    [navigate],
  )

  const neverLoaded = devices.fetchedAt === null
  const body = !loggedIn ? (
    <div className="center-state" data-testid="home-visitor">
      <img className="home-empty-image" src={`${import.meta.env.BASE_URL}static/default-phone.svg`} alt="" />
      <h2>{t.visitorTitle}</h2>
      <p>{t.visitorHint}</p>
      <Button color="primary" shape="rounded" onClick={() => void navigate({ to: LOGIN })}>
        {t.login}
      </Button>
    </div>
  ) : neverLoaded && devices.error === null ? (
      <Skeletons />
    ) : devices.list.length === 0 && devices.error !== null ? (
      <div className="center-state" data-testid="home-error">
        <ErrorBlock status="default" title={t.loadFailed} description={devices.error} />
        <Button color="primary" fill="outline" loading={devices.loading} onClick={() => void refresh()}>
          {zhCN.app.retry}
        </Button>
      </div>
    ) : devices.list.length === 0 ? (
      <div className="center-state" data-testid="home-empty">
        <img className="home-empty-image" src={`${import.meta.env.BASE_URL}static/default-phone.svg`} alt="" />
        <h2>{t.empty}</h2>
        <p>{t.emptyHint}</p>
        <Button color="primary" shape="rounded" onClick={() => void navigate({ to: PURCHASE })}>
          {t.buy}
        </Button>
      </div>
    ) : (
      <ul className="device-list" data-testid="device-list" data-fetched-at={devices.fetchedAt ?? undefined}>
        {devices.list.map((device) => (
          <DeviceRow key={device.userCardId} device={device} onOpen={openDevice} />
        ))}
      </ul>
    )

  return (
    <Page
      back={false}
      testId="home-page"
      right={
        loggedIn ? (
          <button type="button" className="home-logout" data-testid="logout" onClick={() => void logout()}>
            {t.logout}
          </button>
        ) : undefined
      }
    >
      {loggedIn && (
      <section className="home-summary">
        <span className="home-phone" data-testid="home-phone">{maskPhone(phone)}</span>
        <span className="home-count">
          {t.myPhones}
          {devices.list.length > 0 && ` · ${t.count(devices.list.length)}`}
        </span>
      </section>
      )}
      {devices.error !== null && devices.list.length > 0 && (
        <div className="home-stale" role="alert">{t.loadFailed}：{devices.error}</div>
      )}
      <PullToRefresh
        disabled={!loggedIn}
        onRefresh={refresh}
        pullingText={t.pullIdle}
        canReleaseText={t.pullCanRelease}
        refreshingText={t.pullRefreshing}
        completeText={t.pullComplete}
      >
        <div className="home-body">{body}</div>
      </PullToRefresh>
    </Page>
  )
}
