// Push slice: the shared push connection's status.
import type { CoreEvent, PushStatus } from '../events.ts'

export interface PushSlice {
  readonly status: PushStatus
  readonly reconnectAttempts: number
}

export const initialPush: PushSlice = { status: 'closed', reconnectAttempts: 0 }

export const reducePush = (state: PushSlice, event: CoreEvent): PushSlice =>
  event._tag === 'PushStatusChanged' ? { status: event.status, reconnectAttempts: event.reconnectAttempts } : state
