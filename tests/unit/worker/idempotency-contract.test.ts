// Issue 40 item 1: every write that is not safe to repeat declares an idempotency key in the one contract, and only
// such writes do (a repeatable endpoint needs none).
import { describe, expect, it } from 'vitest'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { KEYED_ENDPOINTS } from '../../../worker/protocol/endpoint-flags.ts'

describe('idempotency keys in the contract', () => {
  const endpoints = Object.values(catalogue)

  it('every non-repeatable endpoint is keyed', () => {
    const missing = endpoints.filter((e) => !e.repeatable && e.idempotent !== true).map((e) => e.name)
    expect(missing).toEqual([])
  })

  it('no repeatable endpoint is keyed', () => {
    expect(endpoints.filter((e) => e.repeatable && e.idempotent === true).map((e) => e.name)).toEqual([])
  })

  it('the flags file the tabs get lists exactly the keyed endpoints', () => {
    expect([...KEYED_ENDPOINTS].sort()).toEqual(endpoints.filter((e) => e.idempotent === true).map((e) => e.name).sort())
    expect(KEYED_ENDPOINTS).toContain('orderCreate')
    expect(KEYED_ENDPOINTS).toContain('transferDevices')
  })
})
