// The viewer's connect loop: retry every second while the device starts, at most 30 times.
import { describe, expect, it } from 'vitest'
import type { CallResult } from '../../../worker/protocol/commands.ts'
import { connectWithRetry, type ConnectProgress } from '../../../src/features/devices/connect-retry.ts'

const ready = { internetHttps: 'http://127.0.0.1:1', sn: 'SN1', userCardId: 1, localIp: '10.0.0.1', cardToken: 'abc', streamMode: 'simulated' as const }
const starting = (progress: number): CallResult<unknown> => ({ ok: true, data: { starting: true, progress } })

const scripted = (answers: CallResult<unknown>[]) => {
  let calls = 0
  return { connect: async () => answers[Math.min(calls++, answers.length - 1)]!, calls: () => calls }
}

describe('connectWithRetry', () => {
  it('returns the connect result at once when the device is ready, without sleeping', async () => {
    const sleeps: number[] = []
    const s = scripted([{ ok: true, data: ready }])
    const out = await connectWithRetry({ connect: s.connect, sleep: async (ms) => void sleeps.push(ms) })
    expect(out).toEqual({ kind: 'ready', result: ready })
    expect(sleeps).toEqual([])
  })

  it('waits one second between tries while starting and reports each retry with the device progress', async () => {
    const sleeps: number[] = []
    const progress: ConnectProgress[] = []
    const s = scripted([starting(10), starting(60), { ok: true, data: ready }])
    const out = await connectWithRetry({ connect: s.connect, sleep: async (ms) => void sleeps.push(ms), onProgress: (p) => progress.push(p) })
    expect(out.kind).toBe('ready')
    expect(sleeps).toEqual([1000, 1000])
    expect(progress).toEqual([{ attempt: 1, max: 30, progress: 10 }, { attempt: 2, max: 30, progress: 60 }])
    expect(s.calls()).toBe(3)
  })

  it('gives up after 30 retries (31 calls) while the device keeps starting', async () => {
    const s = scripted([starting(5)])
    let sleeps = 0
    const out = await connectWithRetry({ connect: s.connect, sleep: async () => void sleeps++ })
    expect(out).toEqual({ kind: 'timeout' })
    expect(s.calls()).toBe(31)
    expect(sleeps).toBe(30)
  })

  it('stops on a failed call with its message', async () => {
    const s = scripted([starting(5), { ok: false, status: 1004, msg: '云手机不存在或无权操作', silent: true }])
    const out = await connectWithRetry({ connect: s.connect, sleep: async () => undefined })
    expect(out).toEqual({ kind: 'failed', msg: '云手机不存在或无权操作' })
  })

  it('treats empty data (the core turns it into false) as a failure', async () => {
    const out = await connectWithRetry({ connect: async () => ({ ok: true, data: false }), sleep: async () => undefined })
    expect(out.kind).toBe('failed')
  })

  it('stops when cancelled between tries', async () => {
    let cancelled = false
    const s = scripted([starting(5)])
    const out = await connectWithRetry({
      connect: s.connect,
      sleep: async () => {
        cancelled = true
      },
      isCancelled: () => cancelled,
    })
    expect(out).toEqual({ kind: 'cancelled' })
    expect(s.calls()).toBe(1)
  })
})
