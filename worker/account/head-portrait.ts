// The avatar every tab shows (issue 8): whenever a tab's getHeadPortrait succeeds (opening the personal centre or
// home, or after an avatar upload, which the tab sends to the file host itself), the answer becomes shared state, so
// every other tab shows the new avatar without asking. Only an http(s) URL is kept.
import type { CallResult } from '../protocol/commands.ts'
import { isHttpUrl } from '../protocol/domain.ts'
import type { StateEvent } from '../protocol/events.ts'
import type { SharedState } from '../protocol/projection/index.ts'

const httpUrl = (v: unknown): string | null => (isHttpUrl(v) ? v : null)

/** The state event a call's result implies, or null (another endpoint, a failure, or nothing new). */
export const avatarEventOf = (name: string, result: CallResult<unknown>, state: SharedState): StateEvent | null => {
  if (name !== 'getHeadPortrait' || !result.ok) return null
  const data = result.data as { headPortrait?: unknown } | false
  const url = httpUrl(data === false ? null : data.headPortrait)
  return (state.avatar ?? null) === url ? null : { _tag: 'AvatarChanged', url }
}
