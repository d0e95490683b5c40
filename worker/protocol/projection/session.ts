// Session slice: who is logged in, and how the last session ended (so every tab, even one that attaches during the
// exit, can tell the user why it was sent to login).
import type { CoreEvent, SessionEnd } from '../events.ts'
import type { UserInfo } from '../session.ts'

export interface SessionSlice {
  readonly loggedIn: boolean
  readonly user: UserInfo | null
  readonly phone: string | null
  /** the exit that ended the previous session; null while logged in. */
  readonly ended: SessionEnd | null
}

export const initialSession: SessionSlice = { loggedIn: false, user: null, phone: null, ended: null }

export const reduceSession = (state: SessionSlice, event: CoreEvent): SessionSlice => {
  switch (event._tag) {
    case 'SessionChanged':
      return { loggedIn: true, user: event.user, phone: event.phone, ended: null }
    case 'SessionEnded':
      return { loggedIn: false, user: null, phone: null, ended: event.end }
    default:
      return state
  }
}
