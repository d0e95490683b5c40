// Rebuilds the snapshot a restarted worker starts from: the persisted keys (session, cached device list, meal
// types, system name, counters) at the log's last seq, so a reload paints before the network answers.
import * as Effect from 'effect/Effect'
import type { Snapshot } from '../protocol/commands.ts'
import type { Device } from '../protocol/devices.ts'
import type { MealTypeGroup } from '../protocol/pay.ts'
import type { UserInfo } from '../protocol/session.ts'
import type { CardCouponCounters } from '../protocol/events.ts'
import { StorageKey } from '../protocol/storage-keys.ts'
import type { StorageShape } from '../storage/storage.ts'
import { emptySnapshot } from './snapshot.ts'

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

export const readCounters = (v: unknown): CardCouponCounters =>
  isObject(v) && typeof v.my === 'number' && typeof v.activationCode === 'number' && typeof v.coupon === 'number'
    ? { my: v.my, activationCode: v.activationCode, coupon: v.coupon }
    : emptySnapshot.cardCoupon

export const readUser = (v: unknown): UserInfo | null =>
  isObject(v) && typeof v.username === 'string' && typeof v.userType === 'number'
    ? { username: v.username, userType: v.userType, phone: typeof v.phone === 'string' ? v.phone : '' }
    : null

export const hydrateSnapshot = (storage: StorageShape, seq: number): Effect.Effect<Snapshot> =>
  Effect.gen(function* () {
    const token = yield* storage.get(StorageKey.token)
    const loggedIn = typeof token === 'string' && token !== ''
    const phone = yield* storage.get(StorageKey.phone)
    const devices = yield* storage.get(StorageKey.deviceListCache)
    const meals = yield* storage.get(StorageKey.mealTypesCache)
    const systemName = yield* storage.get(StorageKey.systemName)
    const cached = isObject(devices) && Array.isArray(devices.list) ? devices : null
    return {
      ...emptySnapshot,
      seq,
      session: {
        loggedIn,
        user: loggedIn ? readUser(yield* storage.get(StorageKey.dataInfo)) : null,
        phone: loggedIn && typeof phone === 'string' ? phone : null,
      },
      devices: {
        ...emptySnapshot.devices,
        list: loggedIn && cached !== null ? (cached.list as ReadonlyArray<Device>) : [],
        fetchedAt: loggedIn && cached !== null && typeof cached.fetchedAt === 'number' ? cached.fetchedAt : null,
      },
      mealTypes: loggedIn && Array.isArray(meals) ? (meals as ReadonlyArray<MealTypeGroup>) : [],
      cardCoupon: readCounters(yield* storage.get(StorageKey.cardCouponPush)),
      systemName: typeof systemName === 'string' ? systemName : null,
    }
  })
