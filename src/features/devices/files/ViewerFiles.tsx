// The viewer's files sheet: files (or album pictures) sent to the cloud phone being viewed, each with its progress
// and result, two at a time and cancellable; and the phone's files, each downloaded to this device.
import { Button, DotLoading, Popup, ProgressBar, Tabs, Toast } from 'antd-mobile'
import { useCallback, useEffect, useReducer, useRef, useState, type ChangeEvent } from 'react'
import {
  ALBUM_MAX_COUNT, fileDownloadUrl, isApk, PHONE_FILE_MAX_BYTES, PHONE_FILE_URL_MS, PHONE_UPLOAD_CONCURRENCY, UPLOAD_MAX_COUNT, type PhoneFile,
  type PhoneFileList,
} from '../../../../worker/protocol/files.ts'
import { useCall } from '../../../core/use-call.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { downloadFile, saveBlob } from '../../files/download.ts'
import { uploadFile } from '../../files/upload.ts'
import { formatTime } from '../format-time.ts'
import { formatSize, reduceUploads, rowOf, runLimited, totalsOf } from './phone-files.ts'
import './viewer-files.css'

const t = zhCN.files

type PhoneListState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'failed'; readonly msg: string }
  | { readonly kind: 'ready'; readonly data: PhoneFileList }

type DownloadState = { readonly progress: number; readonly busy: boolean; readonly msg: string }

export const ViewerFiles = (props: { userCardId: number; visible: boolean; onClose: () => void }) => {
  const { userCardId, visible, onClose } = props
  const call = useCall()
  const [tab, setTab] = useState<'upload' | 'phone'>('upload')

  // ---- to the phone ----
  const [rows, dispatch] = useReducer(reduceUploads, [])
  const running = useRef<AbortController | null>(null)
  const filesInput = useRef<HTMLInputElement>(null)
  const imagesInput = useRef<HTMLInputElement>(null)
  const totals = totalsOf(rows)

  useEffect(() => () => running.current?.abort(), [])

  const sendAll = async (picked: ReadonlyArray<File>, max: number) => {
    if (picked.length > max) Toast.show({ content: t.tooMany(max) })
    const files = picked.slice(0, max)
    const batch = Date.now()
    const entries = files.map((file, i) => ({ file, row: rowOf(`${batch}-${i}`, file) }))
    dispatch({ type: 'start', rows: entries.map((e) => e.row) })
    const controller = new AbortController()
    running.current = controller
    const { signal } = controller
    await runLimited(entries.filter((e) => e.row.state === 'waiting'), PHONE_UPLOAD_CONCURRENCY, async ({ file, row }) => {
      const key = row.key
      dispatch({ type: 'uploading', key })
      const ticket = await call('getUploadTicket', { purpose: 'phoneFile', userCardId, name: file.name, size: file.size })
      if (signal.aborted) return
      if (!ticket.ok || !ticket.data) return dispatch({ type: 'failed', key, msg: ticket.ok ? t.uploadFailed : ticket.msg })
      const done = await uploadFile(ticket.data.uploadUrl, file, (progress) => dispatch({ type: 'progress', key, progress }), signal)
      if (done.ok) dispatch({ type: 'done', key, installed: isApk(file.name) })
      else if (!done.cancelled) dispatch({ type: 'failed', key, msg: done.msg })
    }, signal)
    if (signal.aborted) dispatch({ type: 'cancelAll' })
    if (running.current === controller) running.current = null
  }

  const picked = (max: number) => (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])]
    e.target.value = ''
    if (files.length > 0) void sendAll(files, max)
  }

  const cancel = () => {
    running.current?.abort()
    dispatch({ type: 'cancelAll' })
  }

  // ---- from the phone ----
  const [phone, setPhone] = useState<PhoneListState>({ kind: 'loading' })
  const [downloads, setDownloads] = useState<Readonly<Record<string, DownloadState>>>({})
  const loads = useRef(0)
  /** when the shown list came: its download keys last PHONE_FILE_URL_MS. */
  const listedAt = useRef(0)

  const load = useCallback(async () => {
    const id = ++loads.current
    setPhone({ kind: 'loading' })
    const result = await call('getPhoneFiles', { userCardId })
    if (id !== loads.current) return
    if (result.ok && result.data) {
      listedAt.current = Date.now()
      setPhone({ kind: 'ready', data: result.data })
    } else setPhone({ kind: 'failed', msg: result.ok ? t.loadFailed : result.msg || t.loadFailed })
  }, [call, userCardId])

  // the list as it is now, each time the tab is shown (uploads may have added to it)
  useEffect(() => {
    if (visible && tab === 'phone') void load()
  }, [visible, tab, load])

  const setDownload = (fileId: string, state: DownloadState) => setDownloads((d) => ({ ...d, [fileId]: state }))

  /** the file with a key that still has time to run: from the shown list, or from the list fetched again (quietly). */
  const freshKey = async (fileHost: string, file: PhoneFile): Promise<{ fileHost: string; file: PhoneFile } | string> => {
    if (Date.now() - listedAt.current < PHONE_FILE_URL_MS / 2) return { fileHost, file }
    const result = await call('getPhoneFiles', { userCardId })
    if (!result.ok || !result.data) return result.ok ? t.downloadFailed : result.msg || t.downloadFailed
    listedAt.current = Date.now()
    setPhone({ kind: 'ready', data: result.data })
    const again = result.data.list.find((f) => f.fileId === file.fileId)
    return again ? { fileHost: result.data.fileHost, file: again } : t.fileGone
  }

  const download = async (shownHost: string, shown: PhoneFile) => {
    const fresh = await freshKey(shownHost, shown)
    if (typeof fresh === 'string') return void Toast.show({ content: fresh })
    const { fileHost, file } = fresh
    let url: string
    try {
      url = fileDownloadUrl(fileHost, file.flag, file.uploadKey, file.fileId)
    } catch (error) {
      // an empty file id (§8: 文件ID为空)
      return void Toast.show({ content: error instanceof Error ? error.message : t.downloadFailed })
    }
    setDownload(file.fileId, { progress: 0, busy: true, msg: t.downloadingShort(0) })
    const done = await downloadFile(url, (progress) => setDownload(file.fileId, { progress, busy: true, msg: t.downloadingShort(progress) }))
    if (!done.ok) {
      setDownload(file.fileId, { progress: 0, busy: false, msg: done.msg })
      return void Toast.show({ content: done.msg })
    }
    saveBlob(done.blob, file.name)
    setDownload(file.fileId, { progress: 100, busy: false, msg: t.downloaded })
    Toast.show({ content: t.downloaded })
  }

  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyStyle={{ borderRadius: '12px 12px 0 0', maxHeight: '80vh' }}>
      <div className="viewer-files" data-testid="viewer-files-sheet">
        <h3 className="viewer-files-title">{t.sheetTitle}</h3>
        <Tabs activeKey={tab} onChange={(key) => setTab(key === 'phone' ? 'phone' : 'upload')}>
          <Tabs.Tab key="upload" title={<span data-testid="viewer-files-tab-upload">{t.tabUpload}</span>}>
            <div className="viewer-files-actions">
              <Button size="small" color="primary" disabled={totals.busy} data-testid="viewer-files-pick" onClick={() => filesInput.current?.click()}>
                {t.pickFiles(UPLOAD_MAX_COUNT)}
              </Button>
              <Button size="small" disabled={totals.busy} data-testid="viewer-files-pick-images" onClick={() => imagesInput.current?.click()}>
                {t.pickImages(ALBUM_MAX_COUNT)}
              </Button>
              <input ref={filesInput} type="file" multiple hidden data-testid="viewer-files-input" onChange={picked(UPLOAD_MAX_COUNT)} />
              <input ref={imagesInput} type="file" accept="image/*" multiple hidden data-testid="viewer-files-images-input" onChange={picked(ALBUM_MAX_COUNT)} />
            </div>
            <p className="viewer-files-hint">{t.uploadHint(PHONE_FILE_MAX_BYTES / 1024 / 1024)}</p>
            {rows.length === 0 ? (
              <p className="viewer-files-empty">{t.noUploads}</p>
            ) : (
              <>
                <div className="viewer-files-totals" data-testid="viewer-files-totals" role="status">
                  <span>{t.totals(totals.total, totals.ok, totals.failed)}</span>
                  {totals.busy && <Button size="mini" fill="outline" color="danger" data-testid="viewer-files-cancel" onClick={cancel}>{t.cancel}</Button>}
                </div>
                <ul className="viewer-files-list">
                  {rows.map((r) => (
                    <li key={r.key} className="viewer-files-row" data-testid="viewer-files-item" data-state={r.state}>
                      <div className="viewer-files-line">
                        <span className="viewer-files-name">{r.name}</span>
                        <span className="viewer-files-size">{formatSize(r.size)}</span>
                      </div>
                      {(r.state === 'uploading' || r.state === 'done') && <ProgressBar percent={r.progress} />}
                      <span className={`viewer-files-result is-${r.state}`} data-testid="viewer-files-result">
                        {r.msg}{r.installed ? `（${t.installed}）` : ''}
                      </span>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </Tabs.Tab>
          <Tabs.Tab key="phone" title={<span data-testid="viewer-files-tab-phone">{t.tabPhone}</span>}>
            {phone.kind === 'loading' && <p className="viewer-files-empty" data-testid="viewer-phone-files-loading">{t.loading}<DotLoading /></p>}
            {phone.kind === 'failed' && (
              <div className="viewer-files-empty" data-testid="viewer-phone-files-error">
                <p>{phone.msg}</p>
                <Button size="small" data-testid="viewer-phone-files-retry" onClick={() => void load()}>{t.retry}</Button>
              </div>
            )}
            {phone.kind === 'ready' && (
              <div className="viewer-files-totals">
                <span>{t.phoneCount(phone.data.list.length)}</span>
                <Button size="mini" fill="none" data-testid="viewer-phone-files-refresh" onClick={() => void load()}>{t.refresh}</Button>
              </div>
            )}
            {phone.kind === 'ready' && phone.data.list.length === 0 && (
              <p className="viewer-files-empty" data-testid="viewer-phone-files-empty">{t.empty}</p>
            )}
            {phone.kind === 'ready' && phone.data.list.length > 0 && (
              <ul className="viewer-files-list">
                {phone.data.list.map((f) => {
                  const d = downloads[f.fileId]
                  return (
                    <li key={f.fileId} className="viewer-files-row" data-testid="viewer-phone-file" data-file-id={f.fileId}>
                      <div className="viewer-files-line">
                        <span className="viewer-files-name">{f.name}</span>
                        <Button size="mini" color="primary" fill="outline" disabled={d?.busy === true} data-testid="viewer-phone-file-download"
                          onClick={() => void download(phone.data.fileHost, f)}>{t.download}</Button>
                      </div>
                      <div className="viewer-files-line viewer-files-meta">
                        <span>{formatSize(f.size)}</span>
                        <span>{formatTime(f.createdAt)}</span>
                      </div>
                      {d?.busy && <ProgressBar percent={d.progress} />}
                      {d && <span className="viewer-files-result" data-testid="viewer-phone-file-result">{d.msg}</span>}
                    </li>
                  )
                })}
              </ul>
            )}
          </Tabs.Tab>
        </Tabs>
      </div>
    </Popup>
  )
}
