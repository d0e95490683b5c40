// Issue 21: the replay rule a tab applies to commands on their way when the core's worker dies.
import { describe, expect, it } from 'vitest'
import { makeCoreApi } from '../../../worker/api/core-api.ts'
import { catalogue, type EndpointName } from '../../../worker/protocol/catalogue.ts'
import { COMMAND_ON_DEATH } from '../../../worker/protocol/on-death.ts'
import { buildRequest } from '../../../worker/http/request.ts'

const fakePort = () => ({ postMessage: () => {}, onmessage: null, close: () => {} }) as unknown as MessagePort

describe('the replay rule', () => {
  it('attach tells the tab exactly the catalogue\'s repeatable and silent endpoints; lifeLock answers without the core', async () => {
    const api = makeCoreApi(() => Promise.resolve(undefined as never), Promise.resolve('lock-1'))
    const hello = { tabId: 't', channelCode: null, route: { path: '/', search: {} }, visible: true, launch: false }
    const attached = await api.attach(hello, { generation: null, state: null }, fakePort())
    const names = Object.keys(catalogue) as Array<EndpointName>
    expect([...attached.repeatable].sort()).toEqual(names.filter((n) => catalogue[n].repeatable).sort())
    expect([...attached.silent].sort()).toEqual(names.filter((n) => catalogue[n].silentFailure === true).sort())
    // the core never started (run never answers anything real): the lock is told all the same
    const never = makeCoreApi(() => new Promise(() => {}), Promise.resolve('lock-2'))
    expect(await never.lifeLock()).toBe('lock-2')
  })

  it('money, devices, codes and sign-ups are never sent twice; reads and read marks are', () => {
    const once: Array<EndpointName> = [
      'orderCreate', 'starCoinsSpend', 'alipayPrecreate', 'alipayH5Spend', 'wxPayH5Spend', 'cancelOrder',
      'cancelOrderHandle', 'selectReplaceCloud', 'rebootDevice', 'resetDevice', 'bulkReboot', 'bulkReset', 'oneKeyRepair',
      'replaceDevice', 'transferDevices', 'sendSmsCode', 'quickLogin', 'register', 'passwordBackNew', 'updateUserPhone',
      'exchangeActivationCode', 'applyDeviceActivationCode', 'commodityActivationCode',
      'checkPhoneCode', 'stat', 'reportRecords', 'addUserVisit', 'addActiveRecord', 'operationVisitDetailed',
    ]
    for (const n of once) expect(catalogue[n].repeatable, n).toBe(false)
    for (const n of ['noticeAll', 'getDeviceList', 'personalInfo', 'orderDetail', 'getPayStatus', 'readNotice'] as const) {
      expect(catalogue[n].repeatable, n).toBe(true)
    }
    // the SMS code is spent by the first attempt
    expect(COMMAND_ON_DEATH.loginWithCode).toBe('unknown')
    expect(COMMAND_ON_DEATH.call).toBe('call')
  })

  it('API requests bypass the HTTP cache: a dead worker\'s GET must not hold the replayed one behind its cache lock', () => {
    const ctx = { token: null, channelCode: null }
    expect(buildRequest('http://x', catalogue.noticeAll, { pageNum: 1, pageSize: 10 }, ctx).init.cache).toBe('no-store')
    expect(buildRequest('http://x', catalogue.orderCreate, {}, ctx).init.cache).toBe('no-store')
  })
})
