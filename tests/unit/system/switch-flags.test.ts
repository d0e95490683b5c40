// Switches the backend sends as booleans or as 0/1 (issue 8): maintenanceSwitch, the payment switch, the batch and
// password-registration switches decode to booleans; anything else is a malformed reply.
import * as Effect from 'effect/Effect'
import { describe, expect, it } from 'vitest'
import { classifyResponse } from '../../../worker/http/response-rules.ts'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { Maintenance } from '../../../worker/system/maintenance.ts'
import { eventsOf, ok, runCore, settle } from '../worker/harness.ts'

const body = (data: unknown) => ({ status: 0, success: true, msg: '', data })
const maintenance = (maintenanceSwitch: unknown) => ({ maintenanceSwitch, maintenanceContent: '系统升级', showTime: '06:00' })

describe('switch flags', () => {
  it('maintenanceSwitch: true/1 is on, false/0 is off, anything else fails the check', () => {
    const decode = (v: unknown) => classifyResponse(catalogue.getRoomMaintenanceMsg, 200, body(maintenance(v)))
    expect(decode(1)).toEqual({ kind: 'ok', data: maintenance(true) })
    expect(decode(true)).toEqual({ kind: 'ok', data: maintenance(true) })
    expect(decode(0)).toEqual({ kind: 'ok', data: maintenance(false) })
    expect(decode(false)).toEqual({ kind: 'ok', data: maintenance(false) })
    expect(decode(2).kind).toBe('fail')
    expect(decode('1').kind).toBe('fail')
  })

  it('the payment, batch and registration switches take 0/1 too', () => {
    expect(classifyResponse(catalogue.getControlSwitch, 200, body({ iosBuySwitch: 0, androidBuySwitch: 1, osName: 'ios', payTips: '' })))
      .toEqual({ kind: 'ok', data: { iosBuySwitch: false, androidBuySwitch: true, osName: 'ios', payTips: '' } })
    expect(classifyResponse(catalogue.getPhoneMealBatchSwitch, 200, body(0))).toEqual({ kind: 'ok', data: false })
    expect(classifyResponse(catalogue.getPasswordRegisterSwitch, 200, body(1))).toEqual({ kind: 'ok', data: true })
  })

  it('a maintenance message with maintenanceSwitch 1 opens a period every tab is shown', () =>
    runCore({ routes: { '/api/public/v1/room/getRoomMaintenanceMsg': () => ok(maintenance(1)) } }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      yield* (yield* Maintenance).check
      yield* settle
      expect(eventsOf(a, 'MaintenanceChanged')).toEqual([{ _tag: 'MaintenanceChanged', maintenance: maintenance(true) }])
      expect(a.receiver.state().maintenance.period).toBe(1)
      h.routes['/api/public/v1/room/getRoomMaintenanceMsg'] = () => ok(maintenance(0))
      yield* (yield* Maintenance).check
      yield* settle
      expect(a.receiver.state().maintenance.msg?.maintenanceSwitch).toBe(false)
    })))
})
