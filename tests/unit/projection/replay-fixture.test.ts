// A diagnostic event log recorded from a real end-to-end run (tests/e2e/10-event-log.e2e.ts, settings → 导出诊断日志),
// kept as a fixture: replayed through the one projection it gives exactly the state the worker had exported.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { EventLogExport } from '../../../worker/protocol/commands.ts'
import { replayExport } from '../../support/replay.ts'

const log = JSON.parse(readFileSync(new URL('../../fixtures/event-log.e2e.json', import.meta.url), 'utf8')) as EventLogExport

describe('a recorded event log', () => {
  it('replays into the projection to the exported state', () => {
    expect(log.events.length).toBeGreaterThan(3)
    expect(replayExport(log)).toEqual(log.head)
  })

  it('carries no phone number and no token', () => {
    const strings: Array<string> = []
    JSON.stringify(log, (key, value: unknown) => {
      if (typeof value === 'string') strings.push(value)
      if (key === 'token') expect(value).toBe('[redacted]')
      return value
    })
    expect(strings.filter((v) => /1[3-9]\d{9}/.test(v))).toEqual([])
    expect(strings.some((v) => v.includes('****'))).toBe(true)
  })

  it('refuses a file that is not an exported log', () => {
    expect(() => replayExport({ ...log, kind: 'other' } as unknown as EventLogExport)).toThrow()
  })
})
