// /pages/index/index (and /): maintenance and announcement bars, the pop-up ads, the coupon counters, the unread
// notices and the account's cloud phones (the current one highlighted; HomeBody), pull to refresh, logout.
import { Button, Toast } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react'
import type { Device } from '../../../../worker/protocol/devices.ts'
import { useCore } from '../../../core-context.tsx'
import {
  AnnouncementBar, CouponCounters, currentDeviceOf, MaintenanceNotice, selectDevice, slidingKeyOf,
} from '../../../features/devices/home-pieces.tsx'
import { useCall } from '../../../core/use-call.ts'
import '../../../features/devices/devices.css'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { maskPhone } from '../../../lib/validators.ts'
import { PATHS } from '../../../router/paths.ts'
import { useAppStore } from '../../../store/index.ts'
import { OfflineNotice } from '../../../ui/OfflineNotice.tsx'
import { BackToTop } from '../../../ui/kit/BackToTop.tsx'
import { Page } from '../../../ui/Page.tsx'
import { useIdleMount } from '../../../ui/use-idle-mount.ts'
import { useOnline } from '../../../ui/use-online.ts'
import { Shortcuts } from './-components/Shortcuts.tsx'
import { useConfirm } from '../../../ui/use-confirm.ts'
import { HomeBody } from './-components/HomeBody.tsx'
import DeviceMoreSheets from '../../../features/devices/DeviceMoreSheets.tsx'
import { NoticeEntry } from './-components/NoticeEntry.tsx'
import { useHomeView, ViewBar } from './-components/ViewBar.tsx'
import { usePopUpAds } from './-components/use-pop-up-ads.ts'
import './index.css'

// only a signed-in user with ads due loads the pop-up (and its swiper)
const AdPopup = lazy(() => import('../../../features/devices/AdPopup.tsx'))

const t = zhCN.home

/** The unread notices total; refreshed on demand (pull to refresh, return to home). */
const useUnreadTotal = (enabled: boolean): { unread: number; reload: () => Promise<void> } => {
  const call = useCall()
  const [unread, setUnread] = useState(0)
  const reload = useCallback(async () => {
    if (!enabled) return
    const r = await call('noticeUnreadTotal', {})
    if (r.ok) setUnread(typeof r.data === 'number' ? r.data : 0)
  }, [call, enabled])
  useEffect(() => {
    void reload()
  }, [reload])
  return { unread: enabled ? unread : 0, reload }
}

export default function HomeScreen() {
  const { api } = useCore()
  const confirm = useConfirm()
  const navigate = useNavigate()
  // the list's fields, not its loading flag: a refresh's start and end do not re-render the home
  const list = useAppStore((s) => s.devices.list)
  const fetchedAt = useAppStore((s) => s.devices.fetchedAt)
  const error = useAppStore((s) => s.devices.error)
  const mealTypes = useAppStore((s) => s.mealTypes)
  const loggedIn = useAppStore((s) => s.session.loggedIn)
  // A list that arrives (or changes) renders its rows in a pass React slices, after the urgent updates: a page load's
  // list is then not one long task (issue 24). The list and the signed-in state are deferred as one snapshot the
  // store once held: a deferred list beside a live sign-in state would show the previous account's list again when an
  // account switch passes through signed-out before the deferred pass has caught up.
  // The highlighted row (the remembered device, else the first) is read from the same snapshot: from the live list it
  // changed as the list arrived and re-rendered the body, pull to refresh and all, synchronously with the old rows.
  const explicitKey = useAppStore((s) => s.tab.currentSlidingKey)
  const shown = useDeferredValue(useMemo(() => {
    const current = currentDeviceOf(list, explicitKey)
    return { loggedIn, list, fetchedAt, error, currentKey: current ? slidingKeyOf(current) : null }
  }, [loggedIn, list, fetchedAt, error, explicitKey]))
  const phone = useAppStore((s) => s.session.phone ?? s.session.user?.phone ?? '')
  const avatar = useAppStore((s) => s.avatar ?? null)
  const { unread, reload: reloadUnread } = useUnreadTotal(loggedIn)
  const { ads, done: adsDone } = usePopUpAds(loggedIn)
  const online = useOnline()
  const listRef = useRef<HTMLUListElement>(null)
  const scrolledTo = useRef<string | null>(null)
  const [view, setView] = useHomeView(api)
  const [wallSelected, setWallSelected] = useState<ReadonlySet<number>>(new Set())
  const toggleWallSelect = useCallback((userCardId: number) => setWallSelected((before) => {
    const next = new Set(before)
    if (!next.delete(userCardId)) next.add(userCardId)
    return next
  }), [])

  const refresh = useCallback(async () => {
    await Promise.all([api.refreshDevices(), reloadUnread()])
  }, [api, reloadUnread])

  useEffect(() => {
    if (!loggedIn) return
    void api.refreshDevices()
    // the answer becomes shared state (the avatar every tab shows)
    void api.call('getHeadPortrait', {})
  }, [api, loggedIn])

  // back online: refresh by itself what the offline notice said was stale
  const wasOnline = useRef(online)
  useEffect(() => {
    if (online && !wasOnline.current && loggedIn) void refresh()
    wasOnline.current = online
  }, [online, loggedIn, refresh])

  // Coming back home: bring the remembered device into view once (the list may paint before it is known).
  useEffect(() => {
    if (explicitKey === null || scrolledTo.current === explicitKey || shown.list.length === 0) return
    const row = listRef.current?.querySelector<HTMLElement>(`[data-user-card-id="${CSS.escape(explicitKey)}"]`)
    if (!row) return
    scrolledTo.current = explicitKey
    row.scrollIntoView({ block: 'center' })
  }, [explicitKey, shown.list])

  const logout = async () => {
    const confirmed = await confirm({ title: t.logoutConfirmTitle, content: t.logoutConfirm })
    if (confirmed) await api.logout()
  }

  const openDevice = useCallback(
    (device: Device) => {
      if (!navigator.onLine) {
        Toast.show({ content: zhCN.shell.offlineAction })
        return
      }
      selectDevice(device)
      void navigate({ to: PATHS.cloudPhoneView, search: { userCardId: String(device.userCardId) } })
    },
    [navigate],
  )

  // the list's one "more" sheet, for the card it was opened for (that card as the list has it now)
  const [more, setMore] = useState<{ userCardId: Device['userCardId']; open: boolean } | null>(null)
  const openMore = useCallback((device: Device) => setMore({ userCardId: device.userCardId, open: true }), [])
  const closeMore = useCallback(() => setMore((m) => m && { ...m, open: false }), [])
  const moreDevice = more === null ? undefined : shown.list.find((d) => d.userCardId === more.userCardId)
  const sheetsMounted = useIdleMount(more !== null)

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
      <MaintenanceNotice />
      {loggedIn && <AnnouncementBar />}
      {loggedIn && (
        <>
          <section className="home-summary">
            <div className="home-who">
              <span className="home-phone" data-testid="home-phone">
                {avatar !== null && <img className="home-avatar" data-testid="home-avatar" src={avatar} alt="" width={28} height={28} />}
                {maskPhone(phone)}
              </span>
              <span className="home-count">
                {t.myPhones}
                {shown.list.length > 0 && ` · ${t.count(shown.list.length)}`}
              </span>
            </div>
            <NoticeEntry unread={unread} onOpen={() => void navigate({ to: PATHS.notificationMessage })} />
          </section>
          <CouponCounters />
          <Shortcuts />
        </>
      )}
      {shown.loggedIn && shown.list.length > 0 && <ViewBar view={view} onChange={setView} />}
      {shown.loggedIn && !online && <OfflineNotice fetchedAt={shown.fetchedAt} />}
      {online && shown.error !== null && shown.list.length > 0 && (
        <div className="home-stale" role="alert">{t.loadFailed}：{shown.error}</div>
      )}
      <HomeBody
        loggedIn={shown.loggedIn}
        list={shown.list}
        fetchedAt={shown.fetchedAt}
        error={shown.error}
        refreshable={loggedIn && online}
        onRefresh={refresh}
        view={view}
        mealTypes={mealTypes}
        currentKey={shown.currentKey}
        listRef={listRef}
        onOpen={openDevice}
        onMore={openMore}
        wallSelected={wallSelected}
        onToggleSelect={toggleWallSelect}
      />
      {view.mode === 'grid' && wallSelected.size > 0 && (
        <div className="wall-selection" data-testid="wall-selection">
          <span className="wall-selection-count">{t.wall.selected(wallSelected.size)}</span>
          <Button size="small" fill="outline" onClick={() => setWallSelected(new Set())}>{t.wall.clear}</Button>
          <Button size="small" color="primary" onClick={() => void navigate({ to: PATHS.bulkOperation })}>{t.wall.bulk}</Button>
          <Button size="small" color="primary" fill="outline" data-testid="wall-to-group"
            onClick={() => void navigate({ to: PATHS.groupControl, search: { ids: [...wallSelected].join(',') } })}>{t.wall.group}</Button>
        </div>
      )}
      {shown.list.length > 0 && sheetsMounted && (
        <DeviceMoreSheets more={more !== null && moreDevice !== undefined ? { device: moreDevice, open: more.open } : null} onClose={closeMore} />
      )}
      {loggedIn && ads.length > 0 && <Suspense fallback={null}><AdPopup ads={ads} onDone={adsDone} /></Suspense>}
      <BackToTop />
    </Page>
  )
}
