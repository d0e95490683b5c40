// Avatar slice (issue 8): the account's head portrait, so a new avatar shows in every tab at once. An account's:
// reset with it. A state persisted before this slice existed has none (undefined reads as null).
import type { CoreEvent } from '../events.ts'

export type AvatarSlice = string | null

export const initialAvatar: AvatarSlice = null

export const reduceAvatar = (state: AvatarSlice | undefined, event: CoreEvent): AvatarSlice =>
  event._tag === 'AvatarChanged' ? event.url : (state ?? null)
