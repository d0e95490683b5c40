// The worker's device-list loader (issue 24 item 5): one request at a time, and a refresh asked while one is on its
// way loads again after it, so a change reported meanwhile (a refreshCloudPhoneList push) is never answered by a
// request that left before it.
import { describe, expect, it } from 'vitest'
import * as Effect from 'effect/Effect'
import * as Fiber from 'effect/Fiber'
import { DeviceList } from '../../../worker/devices/device-list.ts'
import { coreCall } from '../../../worker/http/http-pipeline.ts'
import { PushRules } from '../../../worker/push/push-rules.ts'
import { eventsOf, ok, runCore, settle, type Reply } from './harness.ts'

const loggedIn = { isUpdate: '1', token: 'tok', dataInfo: { username: 'demo', userType: 1, phone: '138' }, phone: '138', deviceStatId: 'dev-1' }
const LIST = '/api/resources/v6/client/device/info/getDeviceList'
const device = (userCardId: number, diskName: string) => ({
  id: userCardId, userCardId, diskName, validTime: 600, phoneType: 'STANDARD', buyVipType: 'VIP', androidVersion: '12', previewUrl: '',
  room: 'r1', freeTrial: 0, userName: 'demo',
  phoneAuthStatus: 0, authPhone: 0,
})

/** Answers each getDeviceList request only when the test releases it, with the list the server has at that moment. */
const heldList = () => {
  const waiting: Array<() => void> = []
  let server: ReadonlyArray<ReturnType<typeof device>> = [device(1, '旧名称')]
  return {
    route: () => new Promise<Reply>((resolve) => waiting.push(() => resolve(ok(server)))),
    change: (list: ReadonlyArray<ReturnType<typeof device>>) => { server = list },
    release: () => waiting.shift()?.(),
    get held() { return waiting.length },
  }
}

describe('device list loader', () => {
  it('a refresh asked while a load is on its way loads again after it; those asked meanwhile share that one load', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const tab = yield* h.addTab('home')
      const list = heldList()
      h.routes[LIST] = list.route
      const devices = yield* DeviceList
      const first = yield* Effect.forkChild(devices.refresh(coreCall))
      yield* settle
      expect(list.held).toBe(1)
      // the server changes while the first request is on its way (its answer is the old list): the push says so
      const second = yield* Effect.forkChild(devices.refresh(coreCall))
      const third = yield* Effect.forkChild(devices.refresh(coreCall))
      yield* settle
      expect(h.requestsTo(LIST)).toHaveLength(1)
      list.release()
      list.change([device(1, '新名称'), device(2, '新云手机')])
      yield* settle
      expect(h.requestsTo(LIST)).toHaveLength(2)
      list.release()
      const [a, b, c] = [yield* Fiber.join(first), yield* Fiber.join(second), yield* Fiber.join(third)]
      expect(a.ok && a.data.map((d) => d.diskName)).toEqual(['旧名称'])
      for (const r of [b, c]) expect(r.ok && r.data.map((d) => d.diskName)).toEqual(['新名称', '新云手机'])
      yield* settle
      expect(h.requestsTo(LIST)).toHaveLength(2)
      const loaded = eventsOf(tab, 'DeviceListLoaded')
      expect(loaded.at(-1)).toMatchObject({ devices: [{ diskName: '新名称' }, { diskName: '新云手机' }] })
      // and once idle, a refresh loads at once
      const fourth = yield* Effect.forkChild(devices.refresh(coreCall))
      yield* settle
      expect(h.requestsTo(LIST)).toHaveLength(3)
      list.release()
      expect((yield* Fiber.join(fourth)).ok).toBe(true)
    })))

  it('a refreshCloudPhoneList push during a held load ends with the list after the change', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const tab = yield* h.addTab('home')
      const list = heldList()
      h.routes[LIST] = list.route
      const pull = yield* Effect.forkChild((yield* DeviceList).refresh(coreCall))
      yield* settle
      list.change([device(1, '旧名称'), device(3, '刚买的云手机')])
      ;(yield* PushRules).handle({ type: 'refreshCloudPhoneList', data: null })
      yield* settle
      list.release()
      yield* Fiber.join(pull)
      yield* settle
      list.release()
      yield* settle
      expect(h.requestsTo(LIST)).toHaveLength(2)
      expect(eventsOf(tab, 'DeviceListLoaded').at(-1)).toMatchObject({ devices: [{ diskName: '旧名称' }, { diskName: '刚买的云手机' }] })
    })))
})
