// Choosing and uploading an avatar: the file checked here first (type, size), then a ticket asked for through the
// core, then the bytes sent to the ticket's URL (files/upload.ts: progress, the §9 upload timeout). The server checks again.
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '../../../worker/protocol/files.ts'
import { zhCN } from '../../i18n/zh-CN.ts'

const t = zhCN.files

/** null if the file may be uploaded as an avatar, else the Chinese reason. */
export const avatarFileProblem = (file: { type: string; size: number }): string | null => {
  if (!(AVATAR_TYPES as ReadonlyArray<string>).includes(file.type)) return t.avatarType
  if (file.size === 0) return t.avatarEmpty
  if (file.size > AVATAR_MAX_BYTES) return t.avatarSize
  return null
}
