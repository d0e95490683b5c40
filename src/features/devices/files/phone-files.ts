// The viewer's files sheet without React: the tab's check of a file before asking for a ticket, the upload list as a
// pure reducer (one row per picked file, its progress and result), sizes for people, and a runner that sends the
// files a few at a time and stops starting new ones once cancelled.
import { PHONE_FILE_MAX_BYTES, PHONE_FILE_NAME_MAX, PHONE_FILE_NAME_RULE } from '../../../../worker/protocol/files.ts'
import { readsAsStored } from '../../../../worker/protocol/validators.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'

const t = zhCN.files
const MIB = 1024 * 1024

/** null if the file may go to the phone, else the Chinese reason (the server checks again). */
export const phoneFileProblem = (file: { name: string; size: number }): string | null => {
  if (file.name.trim() === '') return t.phoneFileNoName
  if ([...file.name].length > PHONE_FILE_NAME_MAX) return t.phoneFileLongName(PHONE_FILE_NAME_MAX)
  if (!readsAsStored(file.name)) return PHONE_FILE_NAME_RULE
  if (file.size === 0) return t.phoneFileEmpty
  if (file.size > PHONE_FILE_MAX_BYTES) return t.phoneFileTooBig(PHONE_FILE_MAX_BYTES / MIB)
  return null
}

export const formatSize = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < MIB) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / MIB).toFixed(1)} MB`
}

export type UploadState = 'waiting' | 'uploading' | 'done' | 'failed' | 'cancelled'

export interface UploadRow {
  readonly key: string
  readonly name: string
  readonly size: number
  readonly progress: number
  readonly state: UploadState
  /** the result shown: 成功 or the Chinese reason. */
  readonly msg: string
  /** an .apk that installed on the phone. */
  readonly installed: boolean
}

export type UploadAction =
  | { readonly type: 'start'; readonly rows: ReadonlyArray<UploadRow> }
  | { readonly type: 'progress'; readonly key: string; readonly progress: number }
  | { readonly type: 'uploading'; readonly key: string }
  | { readonly type: 'done'; readonly key: string; readonly installed: boolean }
  | { readonly type: 'failed'; readonly key: string; readonly msg: string }
  | { readonly type: 'cancelAll' }

/** A picked file's row: refused at once when the tab's check fails. */
export const rowOf = (key: string, file: { name: string; size: number }): UploadRow => {
  const problem = phoneFileProblem(file)
  return {
    key, name: file.name, size: file.size, progress: 0, installed: false,
    state: problem ? 'failed' : 'waiting', msg: problem ?? t.waiting,
  }
}

const settled = (s: UploadState): boolean => s === 'done' || s === 'failed' || s === 'cancelled'

export const reduceUploads = (rows: ReadonlyArray<UploadRow>, action: UploadAction): ReadonlyArray<UploadRow> => {
  const change = (key: string, f: (r: UploadRow) => UploadRow) => rows.map((r) => (r.key === key && !settled(r.state) ? f(r) : r))
  switch (action.type) {
    case 'start':
      return action.rows
    case 'uploading':
      return change(action.key, (r) => ({ ...r, state: 'uploading', msg: t.uploadingShort(r.progress) }))
    case 'progress':
      return change(action.key, (r) => ({ ...r, progress: action.progress, msg: t.uploadingShort(action.progress) }))
    case 'done':
      return change(action.key, (r) => ({ ...r, state: 'done', progress: 100, msg: t.success, installed: action.installed }))
    case 'failed':
      return change(action.key, (r) => ({ ...r, state: 'failed', msg: action.msg }))
    case 'cancelAll':
      return rows.map((r) => (settled(r.state) ? r : { ...r, state: 'cancelled', msg: t.cancelled }))
  }
}

export const totalsOf = (rows: ReadonlyArray<UploadRow>) => ({
  total: rows.length,
  ok: rows.filter((r) => r.state === 'done').length,
  failed: rows.filter((r) => r.state === 'failed').length,
  busy: rows.some((r) => !settled(r.state)),
})

/** Runs `work` over the items, at most `limit` at once, in order; none starts after `signal` aborts. */
export const runLimited = async <A>(
  items: ReadonlyArray<A>, limit: number, work: (item: A) => Promise<void>, signal: AbortSignal,
): Promise<void> => {
  let next = 0
  const lane = async (): Promise<void> => {
    while (next < items.length && !signal.aborted) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
}
