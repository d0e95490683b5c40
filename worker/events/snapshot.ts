// The snapshot a tab paints from, and the pure fold of state events into it (the worker keeps one; tabs may reuse it).
import type { Snapshot } from '../protocol/commands.ts'
import type { StateEvent } from '../protocol/events.ts'
import { EMPTY_CARD_COUPON } from '../protocol/storage-keys.ts'

export const emptySnapshot: Snapshot = {
  seq: 0,
  session: { loggedIn: false, user: null, phone: null },
  devices: { list: [], fetchedAt: null, loading: false, error: null },
  mealTypes: [],
  maintenance: null,
  push: { status: 'closed', reconnectAttempts: 0 },
  cardCoupon: EMPTY_CARD_COUPON,
  announcementActive: false,
  systemName: null,
}

/** Folds one state event; a logout also drops everything that belonged to the account (the exit clears storage). */
export const applyStateEvent = (s: Snapshot, e: StateEvent, seq: number): Snapshot => {
  switch (e._tag) {
    case 'SessionChanged':
      return e.loggedIn
        ? { ...s, seq, session: { loggedIn: true, user: e.user, phone: e.phone } }
        : {
            ...s, seq,
            session: { loggedIn: false, user: null, phone: null },
            devices: emptySnapshot.devices,
            mealTypes: [],
            cardCoupon: EMPTY_CARD_COUPON,
            announcementActive: false,
          }
    case 'DeviceListLoading':
      return { ...s, seq, devices: { ...s.devices, loading: e.loading } }
    case 'DeviceListLoaded':
      return { ...s, seq, devices: { list: e.devices, fetchedAt: e.fetchedAt, loading: false, error: null } }
    case 'DeviceListFailed':
      return { ...s, seq, devices: { ...s.devices, loading: false, error: e.msg } }
    case 'MealTypesLoaded':
      return { ...s, seq, mealTypes: e.groups }
    case 'MaintenanceChanged':
      return { ...s, seq, maintenance: e.maintenance }
    case 'PushStatusChanged':
      return { ...s, seq, push: { status: e.status, reconnectAttempts: e.reconnectAttempts } }
    case 'CardCouponChanged':
      return { ...s, seq, cardCoupon: e.counters }
    case 'AnnouncementFlagChanged':
      return { ...s, seq, announcementActive: e.active }
    case 'SystemNameChanged':
      return { ...s, seq, systemName: e.systemName }
  }
}
