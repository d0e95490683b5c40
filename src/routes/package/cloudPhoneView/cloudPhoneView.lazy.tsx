// /package/cloudPhoneView/cloudPhoneView?userCardId=: connects (retrying while the device starts, with progress),
// shows the live screen through a DeviceStream and offers the device controls; tells the core which card it shows
// and whether a one-click repair runs so changeCard / removeAuth are decided for this tab.
import { ActionSheet, Button, Dialog, ErrorBlock, Popup, List, ProgressBar, Toast } from 'antd-mobile'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { canDo } from '../../../features/devices/device-rules.ts'
import { ModelParametersSheet } from '../../../features/devices/ModelParameters.tsx'
import { soundChoice } from '../../../features/devices/stream/pcm-player.ts'
import { emptyStats, type Quality, type StreamStats } from '../../../features/devices/stream/types.ts'
import { usePhoneStream } from '../../../features/devices/stream/use-phone-stream.ts'
import { ViewerClipboard } from '../../../features/devices/stream/ViewerClipboard.tsx'
import { ViewerFiles } from '../../../features/devices/files/ViewerFiles.tsx'
import { saveScreenshot } from '../../../features/devices/stream/save-screenshot.ts'
import { devicesZhCN as devicesText } from '../../../i18n/zh-CN.devices.ts'
import { useCall } from '../../../core/use-call.ts'
import '../../../features/devices/devices.css'
import { PATHS } from '../../../router/paths.ts'
import { TEXTAREA_MAX_LENGTH } from '../../../ui/kit/defaults.ts'
import { navBarHeight } from '../../../ui/nav-height.ts'
import { appStore, useAppStore } from '../../../store/index.ts'

const route = getRouteApi(PATHS.cloudPhoneView)

const t = devicesText.viewer

export default function CloudPhoneViewScreen() {
  const search = route.useSearch()
  const userCardId = Number(search.userCardId)
  const validId = Number.isInteger(userCardId) && userCardId > 0
  const navigate = useNavigate()
  const call = useCall()
  const devices = useAppStore((s) => s.devices.list)
  const device = devices.find((d) => d.userCardId === userCardId)
  // §1 custom bar height for the viewer's own bar (it names the device and offers exit and more, not the title)
  const statusBar = useAppStore((s) => s.tab.statusBarHeight)
  const topBarHeight = navBarHeight(statusBar, navigator.userAgent)
  const [stats, setStats] = useState<StreamStats>(emptyStats)
  const [statsOpen, setStatsOpen] = useState(false)
  const [clipboardOpen, setClipboardOpen] = useState(false)
  const [filesOpen, setFilesOpen] = useState(false)
  const [phoneClipboard, setPhoneClipboard] = useState<string | null>(null)
  const [quality, setQuality] = useState<Quality>('auto')
  const [moreOpen, setMoreOpen] = useState(false)
  const [qualityOpen, setQualityOpen] = useState(false)
  const [switchOpen, setSwitchOpen] = useState(false)
  const [modelOpen, setModelOpen] = useState(false)
  const [fullscreen, setFullscreen] = useState(false)
  // the phone's sound: off by default, the choice kept for the tab session; turned on by this button (a user gesture)
  const [sound, setSound] = useState(soundChoice)
  const [text, setText] = useState('')
  const stageRef = useRef<HTMLDivElement>(null)
  const rootRef = useRef<HTMLElement>(null)

  const { phase, stream, reconnect } = usePhoneStream({
    userCardId: validId ? userCardId : null,
    stage: stageRef,
    onOpen: (s) => {
      if (appStore.getState().tab.oneClickRepair) appStore.getState().setTab({ oneClickRepair: false })
      s.onStats(setStats)
      s.onClipboard((copied) => {
        setPhoneClipboard(copied)
        Toast.show({ content: t.phoneCopied })
      })
    },
  })

  useEffect(() => {
    if (!validId) return
    appStore.getState().setTab({ viewerCardId: userCardId })
    return () => appStore.getState().setTab({ viewerCardId: null, oneClickRepair: false })
  }, [userCardId, validId])


  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement !== null)
    document.addEventListener('fullscreenchange', onChange)
    return () => document.removeEventListener('fullscreenchange', onChange)
  }, [])

  const exit = () => void navigate({ to: PATHS.home })

  const screenshot = async () => {
    const png = await stream?.screenshot()
    if (!png) return void Toast.show({ content: t.screenshotFailed })
    saveScreenshot(png, device?.diskName ?? String(userCardId))
    Toast.show({ content: t.screenshotSaved })
  }

  const toggleFullscreen = async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen()
      else await rootRef.current?.requestFullscreen()
    } catch {
      // fullscreen is refused outside a user gesture or in some embedded browsers; the screen keeps working
    }
  }

  /** An operation that restarts the device: close the stream, then the connect loop shows the start progress. */
  const restartWith = async (op: 'rebootDevice' | 'resetDevice' | 'oneKeyRepair', done: string) => {
    const r = await call(op, { userCardId })
    if (!r.ok) {
      if (op === 'oneKeyRepair') appStore.getState().setTab({ oneClickRepair: false })
      return
    }
    Toast.show({ content: done })
    reconnect()
  }

  const reboot = async () => {
    if (await Dialog.confirm({ content: t.rebootConfirm, confirmText: devicesText.common.confirm, cancelText: devicesText.common.cancel })) {
      await restartWith('rebootDevice', t.rebooting)
    }
  }
  const reset = async () => {
    const ok = await Dialog.confirm({ title: t.resetConfirmTitle, content: t.resetConfirm, confirmText: devicesText.common.confirm, cancelText: devicesText.common.cancel })
    if (ok) await restartWith('resetDevice', t.resetting)
  }
  const repair = async () => {
    if (!(await Dialog.confirm({ content: t.repairConfirm, confirmText: devicesText.common.confirm, cancelText: devicesText.common.cancel }))) return
    // set before the call so the route the core sees carries the flag when changeCard arrives
    appStore.getState().setTab({ oneClickRepair: true })
    await restartWith('oneKeyRepair', t.repairing)
  }

  const canUse = (op: Parameters<typeof canDo>[1]) => (device ? canDo(device, op) : op !== 'reset' && op !== 'model')
  const others = devices.filter((d) => d.userCardId !== userCardId && canDo(d, 'open'))
  const caps = stream?.capabilities
  const needsKeys = (fn: () => void) => () => (caps?.keys ? fn() : Toast.show({ content: t.frameUnsupported }))

  if (!validId) {
    return (
      <main className="viewer" data-testid="viewer">
        <div className="viewer-overlay">
          <ErrorBlock status="empty" title={t.noCard} />
          <Button color="primary" onClick={exit}>{devicesText.common.backHome}</Button>
        </div>
      </main>
    )
  }

  const moreActions = [
    { key: 'reboot', text: t.reboot, disabled: !canUse('reboot'), onClick: () => void reboot() },
    { key: 'reset', text: t.reset, danger: true, disabled: !canUse('reset'), onClick: () => void reset() },
    { key: 'repair', text: t.repair, disabled: !canUse('repair'), onClick: () => void repair() },
    { key: 'model', text: t.modelParams, onClick: () => setModelOpen(true) },
    { key: 'switch', text: t.switchDevice, onClick: () => setSwitchOpen(true) },
    { key: 'exit', text: t.exit, onClick: exit },
  ].map((a) => ({ ...a, text: <span data-testid={`viewer-action-${a.key}`}>{a.text}</span> }))

  return (
    <main className="viewer" data-testid="viewer" data-phase={phase.kind} data-user-card-id={userCardId} ref={rootRef}>
      <div className="viewer-top" data-testid="viewer-top" style={{ height: topBarHeight, paddingTop: statusBar }}>
        <button type="button" data-testid="viewer-exit" onClick={exit}>{t.exit}</button>
        <span data-testid="viewer-name">{device?.diskName ?? String(userCardId)}</span>
        <button type="button" data-testid="viewer-more" onClick={() => setMoreOpen(true)}>{t.more}</button>
      </div>
      <div className="viewer-stage" ref={stageRef} data-testid="viewer-stage">
        {phase.kind === 'waiting' && <div className="viewer-overlay viewer-overlay-dim" data-testid="viewer-waiting">{phase.msg}</div>}
        {phase.kind === 'connecting' && (
          <div className="viewer-overlay" data-testid="viewer-connecting">
            <span>{phase.attempt === 0 ? t.connecting : t.starting(phase.attempt, phase.max)}</span>
            <ProgressBar percent={phase.progress} data-testid="viewer-progress" data-progress={phase.progress} />
          </div>
        )}
        {phase.kind === 'restarting' && <div className="viewer-overlay" data-testid="viewer-restarting">{t.restarting}</div>}
        {(phase.kind === 'failed' || phase.kind === 'accessRemoved') && (
          <div className="viewer-overlay" data-testid="viewer-failed">
            <span data-testid="viewer-failed-msg">{phase.kind === 'failed' ? phase.msg : t.accessRemoved}</span>
            {phase.kind === 'failed' && <Button color="primary" data-testid="viewer-reconnect" onClick={reconnect}>{t.reconnect}</Button>}
            <Button onClick={exit}>{devicesText.common.backHome}</Button>
          </div>
        )}
      </div>
      {(phase.kind === 'live' || phase.kind === 'waiting') && caps?.stats && (
        <button type="button" className="viewer-stats" data-testid="viewer-stats" aria-expanded={statsOpen} onClick={() => setStatsOpen((o) => !o)}>
          {statsOpen
            ? t.statsLine({
              latencyMs: stats.latencyMs, fps: stats.fps, decode: stats.decodeP50, dropped: stats.framesDropped,
              kbps: stats.bytesPerSecond === null ? null : Math.round((stats.bytesPerSecond * 8) / 1000),
              size: stats.width ? `${stats.width}×${stats.height}` : '--',
            })
            : `${t.latency(stats.latencyMs)} · ${t.fps(stats.fps)}`}
        </button>
      )}
      {phase.kind === 'live' && caps?.text && (
        <form className="viewer-text" onSubmit={(e) => {
          e.preventDefault()
          if (!text) return
          stream?.sendText(text)
          setText('')
        }}>
          <textarea data-testid="viewer-text-input" rows={1} maxLength={TEXTAREA_MAX_LENGTH} value={text} placeholder={t.textPlaceholder}
            aria-label={t.textPlaceholder} onChange={(e) => setText(e.target.value)} />
          <button type="submit" data-testid="viewer-text-send">{t.send}</button>
        </form>
      )}
      <nav className="viewer-toolbar">
        <button type="button" data-testid="viewer-key-back" onClick={needsKeys(() => stream?.key('back'))}>{t.back}</button>
        <button type="button" data-testid="viewer-key-home" onClick={needsKeys(() => stream?.key('home'))}>{t.home}</button>
        <button type="button" data-testid="viewer-key-recents" onClick={needsKeys(() => stream?.key('recents'))}>{t.recents}</button>
        <button type="button" data-testid="viewer-rotate" onClick={() => (caps?.rotate ? stream?.rotate() : Toast.show({ content: t.frameUnsupported }))}>{t.rotate}</button>
        <button type="button" data-testid="viewer-sound" aria-pressed={sound} onClick={() => {
          if (!caps?.audio) return void Toast.show({ content: t.frameUnsupported })
          setSound(!sound)
          stream?.setAudio(!sound)
        }}>{t.sound}</button>
        <button type="button" data-testid="viewer-quality" onClick={() => (caps?.quality ? setQualityOpen(true) : Toast.show({ content: t.frameUnsupported }))}>{t.quality}</button>
        <button type="button" data-testid="viewer-screenshot" onClick={() => (caps?.screenshot ? void screenshot() : Toast.show({ content: t.frameUnsupported }))}>{t.screenshot}</button>
        <button type="button" data-testid="viewer-clipboard" onClick={() => (caps?.clipboard ? setClipboardOpen(true) : Toast.show({ content: t.frameUnsupported }))}>{t.clipboard}</button>
        <button type="button" data-testid="viewer-files" onClick={() => (stream?.mode === 'scrcpy' ? setFilesOpen(true) : Toast.show({ content: t.frameUnsupported }))}>{t.files}</button>
        <button type="button" data-testid="viewer-fullscreen" onClick={() => void toggleFullscreen()}>{fullscreen ? t.exitFullscreen : t.fullscreen}</button>
      </nav>
      <ActionSheet visible={moreOpen} actions={moreActions} cancelText={devicesText.common.cancel} onClose={() => setMoreOpen(false)} closeOnAction />
      <ActionSheet
        visible={qualityOpen}
        extra={stats.preset ? t.qualityNow(t.qualities[stats.preset]) : undefined}
        cancelText={devicesText.common.cancel}
        closeOnAction
        onClose={() => setQualityOpen(false)}
        actions={(['smooth', 'sd', 'hd', 'auto'] as const).map((q) => ({
          key: q,
          text: <span data-testid={`viewer-quality-${q}`} data-selected={quality === q}>{t.qualities[q]}{quality === q ? ' ✓' : ''}</span>,
          onClick: () => {
            setQuality(q)
            stream?.setQuality(q)
          },
        }))}
      />
      <ViewerFiles userCardId={userCardId} visible={filesOpen} onClose={() => setFilesOpen(false)} />
      <ViewerClipboard
        visible={clipboardOpen}
        phoneText={phoneClipboard}
        onClose={() => setClipboardOpen(false)}
        onSend={(text) => stream?.setClipboard(text, false)}
      />
      <Popup visible={switchOpen} onMaskClick={() => setSwitchOpen(false)} bodyStyle={{ borderRadius: '12px 12px 0 0', maxHeight: '60vh', overflowY: 'auto' }}>
        <List header={t.switchDevice} data-testid="viewer-switch-list">
          {others.length === 0 && <List.Item>{t.noOtherDevice}</List.Item>}
          {others.map((d) => (
            <List.Item
              key={d.userCardId}
              clickable
              data-testid="viewer-switch-item"
              data-user-card-id={d.userCardId}
              onClick={() => {
                setSwitchOpen(false)
                void navigate({ to: PATHS.cloudPhoneView, search: { userCardId: String(d.userCardId) }, replace: true })
              }}
            >
              {d.diskName}
            </List.Item>
          ))}
        </List>
      </Popup>
      <ModelParametersSheet
        userCardId={modelOpen ? userCardId : null}
        canEdit={canUse('model')}
        onClose={() => setModelOpen(false)}
        onRestart={() => {
          setModelOpen(false)
          reconnect()
        }}
      />
    </main>
  )
}
