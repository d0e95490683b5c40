// /package/groupControl/groupControl: group control (群控, issue 23). Choose phones (tick, all, by tier, by Android
// version), one of them the master shown large (the viewer's stream through the core), and 同步操作: the master's
// touches, swipes, keys and text go to every chosen phone, scaled by the server to each one's screen (the core's one
// stream socket, `mirror`). The other chosen phones show as live thumbnails (the wall's tiles); a tap makes one the
// master. Reboot, reset, repair, text, clipboard and a file / APK go to all chosen phones as one command of the core's
// ledger, whose per-phone results every tab shows alike (GroupLedger).
import { Button, Dialog, Popup, ProgressBar, Switch, Toast } from 'antd-mobile'
import { getRouteApi } from '@tanstack/react-router'
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ChangeEvent } from 'react'
import { MAX_DEVICES_PER_ACCOUNT } from '../../../../worker/protocol/constants.ts'
import type { GroupAction } from '../../../../worker/protocol/group.ts'
import type { GroupCommandRecord } from '../../../../worker/protocol/projection/group.ts'
import { useCore } from '../../../core-context.tsx'
import { useCall } from '../../../core/use-call.ts'
import { connectWithRetry } from '../../../features/devices/connect-retry.ts'
import { DevicePicker } from '../../../features/devices/DevicePicker.tsx'
import { phoneFileProblem } from '../../../features/devices/files/phone-files.ts'
import { GroupLedger } from '../../../features/devices/group/GroupLedger.tsx'
import { androidVersionsOf, choosable, parseIds, pruneChoice, tiersOf, toggleKind } from '../../../features/devices/group/group-select.ts'
import '../../../features/devices/group/group.css'
import { createDeviceStream } from '../../../features/devices/stream/create.ts'
import type { DeviceStream, MirrorState, NavKey } from '../../../features/devices/stream/types.ts'
import { uploadFile } from '../../../features/files/upload.ts'
import '../../../features/devices/devices.css'
import { devicesZhCN } from '../../../i18n/zh-CN.devices.ts'
import { PATHS } from '../../../router/paths.ts'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'
import { newCommandId } from '../../../features/devices/group/command-id.ts'

const PhoneWall = lazy(() => import('../../../features/devices/wall/PhoneWall.tsx').then((m) => ({ default: m.PhoneWall })))

const route = getRouteApi(PATHS.groupControl)
const t = devicesZhCN.group
const tv = devicesZhCN.viewer
/** phones refused for a passing reason (restarting, unavailable) are asked for again after this. */
const MIRROR_RETRY_MS = 5_000
const NO_SELECTION: ReadonlySet<number> = new Set()
/** after the master's channel closed for a restart, it is connected again (connect answers 5200 until it is up). */
const MASTER_RECONNECT_MS = 1_000

type MasterPhase = { kind: 'none' } | { kind: 'connecting' } | { kind: 'live' } | { kind: 'waiting'; msg: string } | { kind: 'failed'; msg: string }

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** a tablet or wider (group.css's breakpoint): the other phones' tiles in 4 columns, else 3 (names stay readable). */
const WIDE = '(min-width: 768px)'
const subscribeWide = (onChange: () => void) => {
  const query = window.matchMedia(WIDE)
  query.addEventListener('change', onChange)
  return () => query.removeEventListener('change', onChange)
}
const useWide = () => useSyncExternalStore(subscribeWide, () => window.matchMedia(WIDE).matches)

export default function GroupControlScreen() {
  const search = route.useSearch()
  const core = useCore()
  const call = useCall()
  const devices = useAppStore((s) => s.devices.list)
  const [chosen, setChosen] = useState<number[]>(() => parseIds(search.ids))
  const [masterPick, setMasterPick] = useState<number | null>(null)
  const [pickerOpen, setPickerOpen] = useState(false)
  const [sync, setSync] = useState(false)
  const [stream, setStream] = useState<DeviceStream | null>(null)
  const [phase, setPhase] = useState<MasterPhase>({ kind: 'none' })
  const [mirror, setMirror] = useState<MirrorState>({ targets: [], refused: [] })
  /** bumped to connect the master again (after it restarted) */
  const [masterRun, setMasterRun] = useState(0)
  const [text, setText] = useState('')
  const [upload, setUpload] = useState<{ name: string; progress: number } | null>(null)
  const wide = useWide()
  const stageRef = useRef<HTMLDivElement>(null)
  const fileRef = useRef<HTMLInputElement>(null)

  useEffect(() => {
    void core.api.refreshDevices()
  }, [core])

  // names seen, so a phone that left the list is still named when it drops out
  const names = useRef(new Map<number, string>())
  for (const d of devices) names.current.set(d.userCardId, d.diskName)
  const nameOf = useCallback((id: number) => names.current.get(id) ?? String(id), [])

  // the choice follows the list: a phone that left it (removeAuth, transfer) or expired drops out, with a word
  useEffect(() => {
    if (devices.length === 0) return
    const { kept, dropped } = pruneChoice(devices, chosen)
    if (dropped.length === 0) return
    setChosen(kept)
    for (const id of dropped) Toast.show({ content: t.removed(nameOf(id)) })
  }, [devices, chosen, nameOf])

  const master = masterPick !== null && chosen.includes(masterPick) ? masterPick : chosen[0] ?? null
  const others = useMemo(() => chosen.filter((id) => id !== master), [chosen, master])
  const otherDevices = useMemo(() => devices.filter((d) => others.includes(d.userCardId)), [devices, others])

  // the master's stream: connect (retrying while it starts), then the viewer's stream through the core
  useEffect(() => {
    if (master === null) {
      setPhase({ kind: 'none' })
      return
    }
    let cancelled = false
    let current: DeviceStream | null = null
    setPhase({ kind: 'connecting' })
    setMirror({ targets: [], refused: [] })
    void connectWithRetry({ connect: () => call('connect', { userCardId: master }), sleep, isCancelled: () => cancelled, onProgress: () => undefined })
      .then((outcome) => {
        if (cancelled || outcome.kind === 'cancelled') return
        if (outcome.kind !== 'ready') return setPhase({ kind: 'failed', msg: outcome.kind === 'failed' ? outcome.msg || tv.failed : tv.timeout })
        // the tests' and the bench's flag, as in the viewer: the decoder reads the master's input marker from each frame
        const probe = (globalThis as { __PHONE_PROBE__?: boolean }).__PHONE_PROBE__ === true
        const s = createDeviceStream(outcome.result, core, { probe })
        if (s === null || !stageRef.current) return setPhase({ kind: 'failed', msg: tv.invalidViewer })
        current = s
        s.onStatus((status) => {
          if (status.kind === 'live') return setPhase({ kind: 'live' })
          if (status.kind === 'opening') return setPhase({ kind: 'waiting', msg: tv.opening })
          if (status.kind === 'reconnecting') return setPhase({ kind: 'waiting', msg: tv.reconnecting })
          if (status.kind === 'decoderError') return setPhase(status.unsupported ? { kind: 'failed', msg: tv.unsupported } : { kind: 'waiting', msg: tv.decoderError })
          setPhase({ kind: 'failed', msg: tv.closedReasons[status.reason] })
          // a master that restarts (a group reboot, reset or repair) comes back by itself, as in the viewer
          if (status.reason === 'restarting') setTimeout(() => !cancelled && setMasterRun((n) => n + 1), MASTER_RECONNECT_MS)
        })
        s.onMirror?.(setMirror)
        s.mount(stageRef.current)
        setStream(s)
      })
    return () => {
      cancelled = true
      current?.close()
      setStream(null)
    }
  }, [call, core, master, masterRun])

  // 同步操作: the master's input goes to the other chosen phones (the server authorises each for this user)
  const othersKey = others.join(',')
  useEffect(() => {
    if (!stream?.setMirror) return
    stream.setMirror(sync ? others : [])
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stream, sync, othersKey])

  // refused for a passing reason: asked again; refused for good (no access, expired): out of the group
  useEffect(() => {
    if (!sync || !stream?.setMirror) return
    const gone = mirror.refused.filter((r) => r.reason === 'accessRemoved' || r.reason === 'refused' || r.reason === 'expired')
    if (gone.length > 0) {
      setChosen((c) => c.filter((id) => !gone.some((g) => g.cardId === id)))
      for (const g of gone) Toast.show({ content: t.removed(nameOf(g.cardId)) })
    }
    if (!mirror.refused.some((r) => r.reason === 'restarting' || r.reason === 'unavailable')) return
    const timer = setTimeout(() => stream.setMirror?.(others), MIRROR_RETRY_MS)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mirror, sync, stream])

  const send = async (action: GroupAction, ids: ReadonlyArray<number>, extra: { text?: string; fileId?: number; fileName?: string; retryOf?: string } = {}) => {
    if (ids.length === 0) return void Toast.show({ content: t.chooseFirst })
    const r = await core.api.groupCommand({ id: newCommandId(), action, userCardIds: ids, ...extra })
    Toast.show({ content: r.ok ? t.sent : r.msg })
  }

  const confirmThen = async (action: 'reboot' | 'reset' | 'repair') => {
    if (chosen.length === 0) return void Toast.show({ content: t.chooseFirst })
    const content = action === 'reset' ? t.resetConfirm(chosen.length) : action === 'reboot' ? t.rebootConfirm(chosen.length) : t.repairConfirm(chosen.length)
    const ok = await Dialog.confirm({
      ...(action === 'reset' ? { title: t.resetConfirmTitle } : {}), content, confirmText: devicesZhCN.common.confirm, cancelText: devicesZhCN.common.cancel,
    })
    if (ok) await send(action, chosen)
  }

  const sendText = async (action: 'text' | 'clipboard') => {
    if (text === '') return void Toast.show({ content: action === 'text' ? t.textPlaceholder : t.clipboardPlaceholder })
    await send(action, chosen, { text })
    setText('')
  }

  /** the file goes to the master through the viewer's upload path, then the command copies it to every chosen phone. */
  const pickedFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    e.target.value = ''
    if (!file) return
    if (master === null) return void Toast.show({ content: t.chooseFirst })
    const problem = phoneFileProblem(file)
    if (problem) return void Toast.show({ content: problem })
    setUpload({ name: file.name, progress: 0 })
    try {
      const ticket = await call('getUploadTicket', { purpose: 'phoneFile', userCardId: master, name: file.name, size: file.size })
      if (!ticket.ok || !ticket.data) return void Toast.show({ content: ticket.ok ? t.uploadFailed : ticket.msg })
      const done = await uploadFile(ticket.data.uploadUrl, file, (progress) => setUpload({ name: file.name, progress }))
      if (!done.ok) return void Toast.show({ content: done.msg })
      const fileId = Number(done.file.fileId)
      if (!Number.isInteger(fileId) || fileId <= 0) return void Toast.show({ content: t.uploadFailed })
      await send('file', chosen, { fileId, fileName: file.name })
    } finally {
      setUpload(null)
    }
  }

  const retry = (record: GroupCommandRecord, failed: ReadonlyArray<number>) => {
    const c = record.command
    void send(c.action, failed, {
      ...(c.text !== null ? { text: c.text } : {}),
      ...(c.fileId !== null ? { fileId: c.fileId } : {}),
      ...(c.fileName !== null ? { fileName: c.fileName } : {}),
      retryOf: c.id,
    })
  }

  const tiers = tiersOf(devices)
  const versions = androidVersionsOf(devices)
  const kindChip = (key: string, label: string, match: (d: (typeof devices)[number]) => boolean) => {
    const ids = devices.filter((d) => choosable(d) && match(d)).map((d) => d.userCardId)
    const on = ids.length > 0 && ids.every((id) => chosen.includes(id))
    return (
      <button key={key} type="button" className={`group-chip${on ? ' group-chip-on' : ''}`} aria-pressed={on} data-testid={`group-chip-${key}`}
        onClick={() => setChosen((c) => toggleKind(devices, c, match))}>
        {label}
      </button>
    )
  }
  const key = (k: NavKey) => stream?.key(k)
  const refusedNames = mirror.refused.map((r) => t.syncRefused(nameOf(r.cardId), t.mirrorReasons[r.reason]))

  return (
    <Page testId="group-page">
      <div className="group-layout">
        <div className="group-main">
          <section className="group-section group-choose">
            <p className="dv-hint">{t.hint}</p>
            <div className="group-choose-bar">
              <Button size="small" color="primary" fill="outline" data-testid="group-choose" onClick={() => setPickerOpen(true)}>{t.choose}</Button>
              <span className="group-chosen" data-testid="group-chosen" data-count={chosen.length}>{t.chosen(chosen.length)}</span>
            </div>
            <div className="group-chips" role="group" aria-label={t.choose}>
              <button type="button" className="group-chip" data-testid="group-chip-all"
                onClick={() => setChosen(devices.filter(choosable).map((d) => d.userCardId).slice(0, MAX_DEVICES_PER_ACCOUNT))}>{t.all}</button>
              <button type="button" className="group-chip" data-testid="group-chip-none" onClick={() => setChosen([])}>{t.none}</button>
              {tiers.map((tier) => kindChip(`tier-${tier}`, tier, (d) => d.buyVipType === tier))}
              {versions.map((v) => kindChip(`android-${v}`, t.android(v), (d) => d.androidVersion === v))}
            </div>
          </section>
          <section className="group-section group-master" aria-label={t.master}>
            <div className="group-master-head">
              <span className="group-master-name" data-testid="group-master-name" data-user-card-id={master ?? ''}>
                {t.master}{master !== null ? `：${nameOf(master)}` : ''}
              </span>
              <label className="group-sync">
                <span>{t.sync}</span>
                <Switch data-testid="group-sync" checked={sync} disabled={master === null} onChange={setSync} />
              </label>
            </div>
            <p className={`group-sync-state${sync ? ' group-sync-state-on' : ''}`} data-testid="group-sync-state" data-targets={mirror.targets.length}>
              {sync ? t.syncOn(mirror.targets.length) : t.syncOff}
            </p>
            {sync && refusedNames.length > 0 && (
              <ul className="group-refused" data-testid="group-sync-refused">
                {refusedNames.map((line) => <li key={line}>{line}</li>)}
              </ul>
            )}
            <div className="group-stage" ref={stageRef} data-testid="group-stage" data-phase={phase.kind}>
              {phase.kind === 'none' && <div className="viewer-overlay">{t.noMaster}</div>}
              {phase.kind === 'connecting' && <div className="viewer-overlay">{tv.connecting}</div>}
              {phase.kind === 'waiting' && <div className="viewer-overlay viewer-overlay-dim">{phase.msg}</div>}
              {phase.kind === 'failed' && <div className="viewer-overlay" data-testid="group-master-failed">{phase.msg}</div>}
            </div>
            <nav className="group-keys">
              <button type="button" data-testid="group-key-back" disabled={stream === null} onClick={() => key('back')}>{tv.back}</button>
              <button type="button" data-testid="group-key-home" disabled={stream === null} onClick={() => key('home')}>{tv.home}</button>
              <button type="button" data-testid="group-key-recents" disabled={stream === null} onClick={() => key('recents')}>{tv.recents}</button>
            </nav>
          </section>
        </div>
        <div className="group-side">
          <section className="group-section" aria-labelledby="group-actions-title">
            <h2 className="group-section-title" id="group-actions-title">{t.actions}</h2>
            <div className="group-actions">
              <Button size="small" color="primary" data-testid="group-reboot" onClick={() => void confirmThen('reboot')}>{t.reboot}</Button>
              <Button size="small" color="primary" fill="outline" data-testid="group-repair" onClick={() => void confirmThen('repair')}>{t.repair}</Button>
              <Button size="small" color="danger" data-testid="group-reset" onClick={() => void confirmThen('reset')}>{t.reset}</Button>
              <Button size="small" fill="outline" data-testid="group-file" disabled={upload !== null} onClick={() => fileRef.current?.click()}>{t.file}</Button>
              <input ref={fileRef} type="file" hidden data-testid="group-file-input" onChange={(e) => void pickedFile(e)} />
            </div>
            {upload && (
              <div className="group-upload" data-testid="group-upload">
                <span>{t.uploading(upload.name, upload.progress)}</span>
                <ProgressBar percent={upload.progress} />
              </div>
            )}
            <div className="group-text">
              <textarea data-testid="group-text-input" rows={2} maxLength={500} value={text} placeholder={t.textPlaceholder}
                aria-label={t.textPlaceholder} onChange={(e) => setText(e.target.value)} />
              <div className="group-text-buttons">
                <Button size="small" color="primary" data-testid="group-text-send" onClick={() => void sendText('text')}>{t.text}</Button>
                <Button size="small" fill="outline" data-testid="group-clipboard-send" onClick={() => void sendText('clipboard')}>{t.clipboard}</Button>
              </div>
            </div>
          </section>
          {otherDevices.length > 0 && (
            <section className="group-section" aria-labelledby="group-others-title">
              <h2 className="group-section-title" id="group-others-title">{t.others}</h2>
              <p className="dv-hint">{t.masterHint}</p>
              <Suspense fallback={null}>
                <PhoneWall devices={otherDevices} columns={wide ? 4 : 3} currentKey={null} onOpen={(d) => setMasterPick(d.userCardId)}
                  selected={NO_SELECTION} onToggleSelect={(id) => setMasterPick(id)} />
              </Suspense>
            </section>
          )}
          <GroupLedger onRetry={retry} />
        </div>
      </div>
      <Popup visible={pickerOpen} onMaskClick={() => setPickerOpen(false)} bodyStyle={{ borderRadius: '12px 12px 0 0', maxHeight: '75vh', overflowY: 'auto' }}>
        <div className="group-picker-head">
          <span>{t.chosen(chosen.length)}</span>
          <Button size="small" color="primary" data-testid="group-picker-done" onClick={() => setPickerOpen(false)}>{devicesZhCN.common.confirm}</Button>
        </div>
        <DevicePicker devices={devices} value={chosen} onChange={setChosen} isEnabled={choosable} testId="group-picker" />
      </Popup>
    </Page>
  )
}
