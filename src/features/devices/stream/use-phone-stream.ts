// One phone's live picture on a screen (the viewer, group control's master): connect (retrying while the phone
// starts, with progress), open its DeviceStream through the core, mount it on the stage, follow its status, and
// connect again by itself after the phone restarted. The screens differ only in what they show for each phase.
import { useCallback, useEffect, useState, type RefObject } from 'react'
import { useCore } from '../../../core-context.tsx'
import { useCall } from '../../../core/use-call.ts'
import { devicesZhCN } from '../../../i18n/zh-CN.devices.ts'
import { connectWithRetry } from '../connect-retry.ts'
import { createDeviceStream } from './create.ts'
import type { DeviceStream, StreamStatus } from './types.ts'

const t = devicesZhCN.viewer
/** after the channel closed for a restart, the phone is connected again (connect answers 5200 until it is up). */
const RESTART_RECONNECT_MS = 1_000

export type PhonePhase =
  | { kind: 'none' }
  | { kind: 'connecting'; attempt: number; max: number; progress: number }
  | { kind: 'live' }
  /** the stream is up but not painting (opening, reconnecting, recovering the decoder): never a frozen frame as live. */
  | { kind: 'waiting'; msg: string }
  | { kind: 'restarting' }
  | { kind: 'failed'; msg: string }
  | { kind: 'accessRemoved' }

const connecting: PhonePhase = { kind: 'connecting', attempt: 0, max: 30, progress: 0 }
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** the phase a stream's status means; `null`: the phone restarts (connected again by the hook). */
const phaseOf = (status: StreamStatus): PhonePhase => {
  if (status.kind === 'live') return { kind: 'live' }
  if (status.kind === 'opening') return { kind: 'waiting', msg: t.opening }
  if (status.kind === 'reconnecting') return { kind: 'waiting', msg: t.reconnecting }
  if (status.kind === 'decoderError') return status.unsupported ? { kind: 'failed', msg: t.unsupported } : { kind: 'waiting', msg: t.decoderError }
  if (status.reason === 'restarting') return { kind: 'restarting' }
  if (status.reason === 'accessRemoved') return { kind: 'accessRemoved' }
  return { kind: 'failed', msg: t.closedReasons[status.reason] }
}

export interface PhoneStreamOptions {
  /** the phone shown, or null for none. */
  readonly userCardId: number | null
  readonly stage: RefObject<HTMLDivElement | null>
  /** wires the screen's own listeners (stats, clipboard, mirror) before the stream mounts. */
  readonly onOpen?: (stream: DeviceStream) => void
}

/** the tests' and the bench's flag: the decoder reads the phone's input marker from each frame. */
const probing = () => (globalThis as { __PHONE_PROBE__?: boolean }).__PHONE_PROBE__ === true

export const usePhoneStream = ({ userCardId, stage, onOpen }: PhoneStreamOptions) => {
  const call = useCall()
  const core = useCore()
  const [phase, setPhase] = useState<PhonePhase>(userCardId === null ? { kind: 'none' } : connecting)
  const [stream, setStream] = useState<DeviceStream | null>(null)
  const [run, setRun] = useState(0)
  const reconnect = useCallback(() => setRun((n) => n + 1), [])

  useEffect(() => {
    if (userCardId === null) {
      setPhase({ kind: 'none' })
      return
    }
    let cancelled = false
    let current: DeviceStream | null = null
    setPhase(connecting)
    void connectWithRetry({
      connect: () => call('connect', { userCardId }),
      sleep,
      isCancelled: () => cancelled,
      onProgress: (p) => setPhase({ kind: 'connecting', ...p }),
    }).then((outcome) => {
      if (cancelled || outcome.kind === 'cancelled') return
      if (outcome.kind === 'timeout') return setPhase({ kind: 'failed', msg: t.timeout })
      if (outcome.kind === 'failed') return setPhase({ kind: 'failed', msg: outcome.msg || t.failed })
      const s = createDeviceStream(outcome.result, core, { probe: probing() })
      if (s === null || !stage.current) return setPhase({ kind: 'failed', msg: t.invalidViewer })
      current = s
      onOpen?.(s)
      s.onStatus((status) => {
        const next = phaseOf(status)
        setPhase(next)
        if (next.kind === 'restarting') setTimeout(() => !cancelled && reconnect(), RESTART_RECONNECT_MS)
      })
      s.mount(stage.current)
      setStream(s)
    })
    return () => {
      cancelled = true
      current?.close()
      setStream(null)
    }
    // onOpen is the screen's wiring at the time the stream opens, not a reason to open another
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [call, core, userCardId, run, reconnect])

  return { phase, stream, reconnect }
}
