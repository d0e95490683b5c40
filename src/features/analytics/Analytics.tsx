// Mounted once per tab: page records of every route the tab shows (batched), a user visit and an active record at
// launch with a session and again when this tab signs someone in (§7 addUserVisit, addActiveRecord).
import { useRouterState } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { useCore } from '../../core-context.tsx'
import { appStore } from '../../store/index.ts'
import { AUTH_SCREENS, Points, recordQueue, REPORT_AFTER_MS } from './points.ts'
import { report } from './track.ts'

export const Analytics = () => {
  const { api } = useCore()
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const queue = useRef(recordQueue())
  const path = useRef(pathname)
  path.current = pathname

  useEffect(() => {
    const flush = () => {
      const batch = queue.current.drain()
      if (batch.length > 0) report(api, 'reportRecords', { records: batch })
    }
    const timer = setInterval(flush, REPORT_AFTER_MS)
    const onHide = () => document.visibilityState === 'hidden' && flush()
    document.addEventListener('visibilitychange', onHide)
    return () => {
      clearInterval(timer)
      document.removeEventListener('visibilitychange', onHide)
      flush()
    }
  }, [api])

  useEffect(() => {
    const full = queue.current.add({ pointName: Points.pageView, pagePath: pathname, time: Date.now() })
    if (full) report(api, 'reportRecords', { records: full })
  }, [api, pathname])

  useEffect(() => {
    const visit = () => {
      report(api, 'addUserVisit')
      report(api, 'addActiveRecord')
    }
    if (appStore.getState().session.loggedIn) visit()
    // a session that begins while this tab is on a sign-in screen was started by this tab
    return appStore.subscribe((state, previous) => {
      if (state.session.loggedIn && !previous.session.loggedIn && AUTH_SCREENS.has(path.current)) visit()
    })
  }, [api])

  return null
}
